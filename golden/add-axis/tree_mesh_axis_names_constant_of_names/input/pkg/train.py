import jax

from pkg.config import DATA
from pkg.model import block


def step(x):
    return jax.jit(jax.vmap(block, spmd_axis_name=DATA))(x) / 2
