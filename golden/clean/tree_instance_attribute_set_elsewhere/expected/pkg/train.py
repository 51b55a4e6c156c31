import jax

from .layers import Block


def step(xs):
    blk = Block()
    blk.axis = "model"
    return jax.vmap(blk.apply, spmd_axis_name="data")(xs)
