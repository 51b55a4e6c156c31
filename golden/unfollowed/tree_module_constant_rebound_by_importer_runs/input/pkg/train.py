import jax
from pkg import config
from pkg.model import block


def step(xs):
    config.DATA = 'model'
    return jax.vmap(block, spmd_axis_name='data')(xs)
