"""check_vma=False on a shard_map reached through an inner jax.vmap that maps away the dimension a call places on
Explicit axis 'x' (`P(None, 'x', None)`), specs naming no axis, spmd axis 'y', called under jax.jit: runs and
matches (measured on jax 0.10.2), no finding. The same call made eagerly fails
(golden/refuse/inner_vmap_maps_away_placed_axis_check_vma_false_eager).
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(r)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs0 = np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) / 64.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x', None)))
    result = jax.jit(jax.vmap(apply, spmd_axis_name='y'))(xs)
    reference = xs0 * 2.0 + 1.0
    return result, reference
