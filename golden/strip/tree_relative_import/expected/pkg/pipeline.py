import jax

from .layers import block


def forward(xs):
    return jax.vmap(block, spmd_axis_name='data')(xs)
