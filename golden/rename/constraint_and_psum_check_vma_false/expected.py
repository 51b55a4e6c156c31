"""A sharding constraint names the spmd axis, and the body sums over it with check_vma=False: rename fixes both.

Stripping the constraint alone would turn the constraint's error into silently wrong values (the psum then
mixes batch elements of different shards): the strip of the constraint is judged with the psum's finding.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P('x')))
    return jax.shard_map(
        lambda b: b + jax.lax.psum(b, 'x'), mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False
    )(a)


def main():
    xs = jnp.arange(8 * 4, dtype=jnp.float32).reshape(8, 4)
    result = jax.vmap(layer, spmd_axis_name='y')(xs)
    reference = np.asarray(xs) * 3.0  # per example: b + psum over the 2 devices of 'x' of a replicated b
    return result, reference
