import jax

from pkg.layers import Block


class Pipeline:
    def __init__(self):
        self.block = Block()

    def apply(self, x):
        return self.block(x) + 1.0

    def run(self, xs):
        return jax.vmap(self.apply, spmd_axis_name='spare')(xs)
