import functools

import jax

from pkg.blocks import Block


class Wide(Block):
    __call__ = functools.partialmethod(Block.__call__)


def apply(v):
    return Wide()(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
