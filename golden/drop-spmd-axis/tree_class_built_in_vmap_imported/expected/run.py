import jax.numpy as jnp
import numpy as np

from pkg.train import run


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return run(xs), (np.asarray(xs).sum(axis=1), np.asarray(xs) * 2.0)
