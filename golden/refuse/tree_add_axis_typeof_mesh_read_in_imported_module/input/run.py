import jax.numpy as jnp
import numpy as np

from pkg.model import run


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    return run(x), np.tanh(np.asarray(x)) / 2
