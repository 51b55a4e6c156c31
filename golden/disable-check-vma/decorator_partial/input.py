"""A module-level @partial(jax.shard_map, ...) reached through an inner jax.vmap; the keyword goes into the partial."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))
def block(b):
    return b * b + 1.0


def row(r):
    return jax.vmap(block)(r)


def main():
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8)
    result = jax.vmap(row, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) ** 2 + 1.0
    return result, reference
