"""An inner `jax.vmap` between the spmd vmap (`'x'`) and a check_vma=True shard_map whose body gathers over
`'y'` while its specs (`P()`) do not split the block on it: JAX raises `... out_specs which require replication
which can't be statically inferred`, eager and under jit (measured on jax 0.10.2:
safety/measurements/spmd007_gather_permute_index_local_constants.py). SPMD007; check_vma=False runs and matches.
The same gather over an axis the specs split the block on runs (golden/clean/inner_vmap_body_all_gather_split_axis)."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(row):
    return jax.shard_map(
        lambda b: jax.lax.all_gather(b, 'y', tiled=True)[0:8], mesh=mesh, in_specs=P(), out_specs=P(), check_vma=True
    )(row)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    return result, xs
