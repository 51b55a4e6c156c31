import jax

from pkg.blocks import Block


class Wide(Block):
    pass


def forward(xs):
    blk = Wide(3.0)
    return jax.vmap(blk.apply)(xs)
