import flax.linen as nn
import jax

from .layers import Scale


class Outer(nn.Module):
    def setup(self):
        self.scale = Scale()

    def __call__(self, xs):
        return jax.vmap(self.scale, spmd_axis_name='data')(xs)
