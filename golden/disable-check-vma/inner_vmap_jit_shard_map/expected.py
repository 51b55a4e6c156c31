"""Hazard H2 behind a jax.jit: the inner jax.vmap reaches a jitted shard_map; JAX then fails with a
`ManualAxisType` assertion instead of the pvary error."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    return jax.jit(jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False))(x)


def row(r):
    return jax.vmap(block)(r)


def main():
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8)
    result = jax.vmap(row, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
