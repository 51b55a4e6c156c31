"""An inner `jax.vmap` (over heads) between the spmd vmap (`'data'`) and a check_vma=True shard_map whose body adds
the block to its psum over `'model'` (`b + jax.lax.psum(b, 'model')`, the psum keeping the block's shape): JAX
raises `pvary is a invariant->variant collective`, eager and under jit (measured on jax 0.10.2:
safety/measurements/spmd007_binary_with_reduced_collective.py). SPMD007; check_vma=False runs and matches. Beside
the psum of the block's sum it runs (golden/clean/inner_vmap_body_block_plus_psum_of_sum)."""
import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto))


def head(x):
    return jax.shard_map(lambda b: b + jax.lax.psum(b, 'model'), mesh=mesh, in_specs=P('model'),
                         out_specs=P('model'), check_vma=False)(x)


def multihead(x):
    return jax.vmap(head)(x)


def main():
    xs = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) + 3.0) / 40.0
    result = jax.jit(jax.vmap(multihead, spmd_axis_name='data'))(xs)
    blocks = xs.reshape(4, 4, 4, 2)
    return result, (blocks + blocks.sum(2, keepdims=True)).reshape(4, 4, 8)
