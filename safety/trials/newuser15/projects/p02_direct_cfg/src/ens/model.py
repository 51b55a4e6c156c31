"""A flax nnx block whose __call__ applies the sharded mlp."""
import jax
from flax import nnx

from ens import layers


class Block(nnx.Module):
    def __init__(self, din: int, dout: int, *, rngs: nnx.Rngs):
        self.w = nnx.Param(jax.random.normal(rngs.params(), (din, dout)) * 0.1)

    def __call__(self, x):
        return layers.mlp(x, self.w[...])
