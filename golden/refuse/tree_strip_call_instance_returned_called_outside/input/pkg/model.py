import jax

from pkg.blocks import Block


class Wide(Block):
    pass


def make():
    return Wide()


def apply(v):
    return make()(v)


def evaluate(v):
    f = make()
    return f(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
