import jax

from pkg.blocks import Block


class Layer(Block):
    def run(self, v):
        return super().__call__(v)


class Model:
    def __init__(self):
        self.layer = Layer()

    def forward(self, v):
        return self.layer.run(v)


def apply(v):
    model = Model()
    return getattr(model, 'forward')(v)


def forward(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
