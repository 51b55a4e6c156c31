"""A `jax.lax.map(..., batch_size=2)` between the spmd vmap (`'data'`) and a check_vma=True shard_map whose body
adds its block's mean (`b + b.mean()`: the mean divides by a constant): JAX raises `... out_specs which require
replication which can't be statically inferred`, eager and under jit (measured on jax 0.10.2:
safety/measurements/spmd007_binary_with_reduced_collective.py). SPMD007; check_vma=False runs and matches. Beside
a sum or a maximum it runs (golden/clean/lax_map_body_block_times_pmax_of_max)."""
import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto))


def head(x):
    return jax.shard_map(lambda b: b + b.mean(), mesh=mesh, in_specs=P('model'), out_specs=P('model'),
                         check_vma=False)(x)


def heads(x):
    return jax.lax.map(head, x, batch_size=2)


def main():
    xs = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) + 3.0) / 40.0
    result = jax.vmap(heads, spmd_axis_name='data')(xs)
    blocks = xs.reshape(4, 4, 4, 2)
    return result, (blocks + blocks.mean(-1, keepdims=True)).reshape(4, 4, 8)
