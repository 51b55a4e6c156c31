import jax

from .layers import block


def forward(xs):
    return jax.vmap(lambda x: block(x, 'data'), spmd_axis_name='batch')(xs)
