import jax

from pkg import config
from pkg.model import block


def step(xs):
    return jax.vmap(block, spmd_axis_name=config.DATA)(xs)
