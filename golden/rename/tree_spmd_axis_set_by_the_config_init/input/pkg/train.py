import jax
import jax.numpy as jnp
import numpy as np

from pkg import config
from pkg.model import block


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(block, spmd_axis_name=config.CFG.data)(x), np.asarray(x) ** 2
