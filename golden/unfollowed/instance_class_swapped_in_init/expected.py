"""A store to `__class__` in `Layer.__init__` (`Centred`) makes every `Layer()` a `Centred`: calling it runs
`Centred.__call__` and its shard_map, not `Layer.__call__`'s. Read as a `Layer`, the walk found `Layer`'s
shard_map and its SAFE strip left `Centred`'s collision in place (JAX still raised
`vmap spmd_axis_name cannot appear in shard_map in_specs`). Which `__call__` runs is now not known: an
SPMD910 record at the vmapped instance, no finding, no fix."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def double(b):
    return b * 2.0


def centre(b):
    return b - jnp.mean(b, axis=0, keepdims=True)


class Centred:
    def __call__(self, v):
        return jax.shard_map(centre, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


class Layer:
    def __init__(self):
        self.__class__ = Centred

    def __call__(self, v):
        return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(Layer(), spmd_axis_name='x')(xs)
    blocks = np.asarray(xs).reshape(4, 2, 4)
    reference = (blocks - blocks.mean(axis=1, keepdims=True)).reshape(4, 8)
    return result, reference
