import jax

from pkg.blocks import Block


class Narrow(Block):
    def __call__(self, v):
        return super().__call__(v) * 1.0


def apply(v):
    return Narrow()(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
