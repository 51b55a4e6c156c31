"""Hazard H2 alone: no spec names 'x', but a jax.vmap sits between the spmd vmap and the shard_map."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


def row(r):
    return jax.vmap(block)(r)


def main():
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8)
    result = jax.vmap(row, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
