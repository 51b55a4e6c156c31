import jax

from pkg.model import block


def step(xs):
    return jax.vmap(block, spmd_axis_name='data')(xs)
