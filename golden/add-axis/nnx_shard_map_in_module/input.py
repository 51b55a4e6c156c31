"""An NNX module applying flax.nnx.shard_map in __call__, under nnx.vmap with spmd axis 'x' whose specs name 'x'."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Layer(nnx.Module):
    def __init__(self):
        self.scale = nnx.Param(jnp.full((8,), 2.0))

    def __call__(self, x):
        return nnx.shard_map(
            lambda v, s: v * s + 1.0, mesh=mesh, in_specs=(P('x', 'y'), P('y')), out_specs=P('x', 'y')
        )(x, self.scale[...])


def forward(layer: Layer, x):
    return layer(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = nnx.vmap(forward, in_axes=(None, 0), spmd_axis_name='x')(Layer(), xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
