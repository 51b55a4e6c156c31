import jax

from pkg.blocks import Block


def _run(v):
    return Block()(v)


class Layer:
    __call__ = staticmethod(_run)


def apply(v):
    return Layer()(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
