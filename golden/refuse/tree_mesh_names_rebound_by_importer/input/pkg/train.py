import jax
from pkg import config
from pkg.model import block


def step(xs):
    config.NAMES = ('data', 'other')
    return jax.vmap(block, spmd_axis_name='data')(xs)
