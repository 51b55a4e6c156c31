import jax

from pkg.config import CFG
from pkg.helpers import tweak
from pkg.model import block

tweak(CFG)


def step(xs):
    return jax.vmap(block, spmd_axis_name='data')(xs)
