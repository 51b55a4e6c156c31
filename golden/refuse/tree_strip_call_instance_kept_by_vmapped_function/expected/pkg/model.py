import jax

from pkg.blocks import Block


class Wide(Block):
    pass


SEEN = []


def apply(v):
    w = Wide()
    SEEN.append(w)
    return w(v)


def evaluate(v):
    return type(SEEN[0])()(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
