import jax

from pkg.blocks import Block, plain_call


@plain_call
class Wide(Block):
    pass


def apply(v):
    return Wide()(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
