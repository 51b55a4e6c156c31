import jax.numpy as jnp
import numpy as np

from pkg import utils
from pkg.model import block


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return utils.vmap(block, spmd_axis_name='data')(x), np.asarray(x) * 2.0
