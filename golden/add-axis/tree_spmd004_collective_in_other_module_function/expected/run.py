import jax.numpy as jnp
import numpy as np

from pkg.model import forward


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    # under a plain vmap the pmean over 'x' averages one block's two copies: each element minus itself
    return forward(xs), np.zeros((4, 8), dtype=np.float32)
