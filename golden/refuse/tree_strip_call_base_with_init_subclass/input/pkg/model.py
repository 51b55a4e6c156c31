import jax

from pkg.blocks import Block


def apply(v):
    return Block()(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
