"""An inner `jax.vmap` between the spmd vmap (`'x'`) and a check_vma=True shard_map whose body gathers its block
over `'y'`, the axis its in_specs and out_specs split it on, and slices its own part back: runs and matches,
eager and under jit (measured on jax 0.10.2: safety/measurements/spmd007_gather_permute_index_local_constants.py),
so no SPMD007. Over an axis the specs do not split the block on it fails
(golden/disable-check-vma/inner_vmap_body_all_gather_unsplit_axis)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(row):
    def body(b):
        g = jax.lax.all_gather(jnp.sin(b), 'y', tiled=True)
        return g[0:2]
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=True)(row)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    first = np.sin(xs[..., 0:2])
    return result, np.tile(first, (1, 1, 4))
