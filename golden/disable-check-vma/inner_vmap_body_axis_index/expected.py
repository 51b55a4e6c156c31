"""An inner `jax.vmap` between the spmd vmap (`'x'`) and a check_vma=True shard_map whose body adds
`axis_index('y')` to its block (`P('y')`): a binary step, JAX raises `pvary is a invariant->variant collective`,
eager and under jit, as for `b * axis_index('y')` and `b * 0 + axis_index('y')` (measured on jax 0.10.2:
safety/measurements/spmd007_gather_permute_index_local_constants.py). SPMD007; check_vma=False runs and matches."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(row):
    return jax.shard_map(
        lambda b: b + jax.lax.axis_index('y'), mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False
    )(row)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    return result, xs + np.repeat(np.arange(4, dtype=np.float32), 2)
