"""New-user trial breaker4, p34: an inner `jax.vmap` (over heads) between the spmd vmap (`'data'`) and a
check_vma=True shard_map whose body adds the block to the psum of its sum over `'model'`
(`jax.lax.psum(b.sum(), 'model') + b`): runs and matches, eager and under jit (measured on jax 0.10.2:
safety/measurements/spmd007_binary_with_reduced_collective.py), so no SPMD007. `b + jax.lax.psum(b, 'model')`
fails (golden/disable-check-vma/inner_vmap_body_block_plus_psum_same_shape)."""
import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto))


def head(x):
    return jax.shard_map(lambda b: jax.lax.psum(b.sum(), 'model') + b, mesh=mesh, in_specs=P('model'),
                         out_specs=P('model'))(x)


def multihead(x):
    return jax.vmap(head)(x)


def main():
    xs = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) + 3.0) / 40.0
    result = jax.jit(jax.vmap(multihead, spmd_axis_name='data'))(xs)
    return result, xs + xs.sum(-1, keepdims=True)
