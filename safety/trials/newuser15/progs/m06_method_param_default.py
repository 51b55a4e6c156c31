"""A layer class whose method has the axis as a keyword default; spmd vmap over its bound method; collision."""
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


class Layer:
    def __init__(self, scale):
        self.scale = scale

    def apply(self, x, axis='data'):
        return jax.shard_map(lambda b: b * self.scale, mesh=MESH, in_specs=P(axis), out_specs=P(axis))(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    layer = Layer(2.0)
    return jax.vmap(layer.apply, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
