import jax.numpy as jnp
import numpy as np

from ns.b.train import batched


def main():
    x = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    w = jnp.array([1.0, 2.0, 3.0, 4.0], dtype=jnp.float32)
    return batched(x, w), np.asarray(x) * np.asarray(w)
