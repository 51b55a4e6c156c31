import jax

from .layers import block


def forward(xs):
    return jax.vmap(block, spmd_axis_name='data')(xs)


def forward_called(xs):
    return jax.vmap(lambda x: block(x), spmd_axis_name='data')(xs)
