import jax
from pkg.config import Axes
from pkg.model import block


def step(xs):
    Axes.DATA = 'data'
    return jax.vmap(block, spmd_axis_name='data')(xs)
