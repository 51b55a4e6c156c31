import jax.numpy as jnp
import numpy as np

from pkg.model import forward


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    ss = jnp.arange(4, dtype=jnp.float32)
    return forward(xs, ss), np.asarray(xs) * np.asarray(ss)[:, None]
