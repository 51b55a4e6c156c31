import jax
from pkg.config import CFG
from pkg.model import block


def step(xs):
    vars(CFG)['data_axis'] = 'model'
    return jax.vmap(block, spmd_axis_name='data')(xs)
