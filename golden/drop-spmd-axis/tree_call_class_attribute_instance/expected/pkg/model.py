import jax

from pkg.blocks import Block


class Layer(Block):
    pass


class Model:
    layer = Layer()


def apply(v):
    return Model.layer(v)


def forward(xs):
    return jax.vmap(apply)(xs)
