import jax

from .layers import block


def forward(xs):
    return jax.vmap(jax.jit(block), spmd_axis_name='data')(xs)


def forward2(xs):
    return jax.vmap(lambda x: jax.jit(block)(x), spmd_axis_name='data')(xs)
