"""Deprecated jax.experimental.shard_map.shard_map with positional mesh and specs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def leaky(v):
    return jnp.where(v > 0, v, 0.01 * v)


def layer(x):
    return shard_map(leaky, mesh, P(None, None), P(None, None))(x)


def main():
    xs = jnp.linspace(-4.0, 4.0, 4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(leaky)(xs)
    return result, reference
