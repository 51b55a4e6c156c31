import jax

from .layers import Block


class ModelBlock(Block):
    axis = "model"


def step(xs):
    return jax.vmap(ModelBlock().apply, spmd_axis_name="data")(xs)
