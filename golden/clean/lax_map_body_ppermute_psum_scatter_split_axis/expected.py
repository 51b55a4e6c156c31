"""`jax.lax.map(block, x, batch_size=2)` between the spmd vmap (`'x'`) and check_vma=True shard_maps whose bodies
apply `ppermute` over `'y'` (a cycle) and `psum_scatter(all_gather(...), 'y', tiled=True)`, the axis their specs
split the block on: runs and matches under jit (measured on jax 0.10.2:
safety/measurements/spmd007_gather_permute_index_local_constants.py), so no SPMD007."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(row):
    shifted = jax.shard_map(
        lambda b: jax.lax.ppermute(b, 'y', [(0, 1), (1, 2), (2, 3), (3, 0)]) ** 2,
        mesh=mesh, in_specs=P('y'), out_specs=P('y'),
    )(row)
    return jax.shard_map(
        lambda b: jax.lax.psum_scatter(jax.lax.all_gather(b, 'y', tiled=True), 'y', tiled=True),
        mesh=mesh, in_specs=P('y'), out_specs=P('y'),
    )(shifted)


def apply(x):
    return jax.lax.map(block, x, batch_size=2)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(xs)
    rolled = np.roll(xs.reshape(8, 4, 4, 2), 1, axis=2).reshape(8, 4, 8) ** 2
    return result, rolled * 4.0
