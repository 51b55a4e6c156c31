"""The control of clean/capture_scalar_reduction_input_placed_beyond_batch: the captured value keeps a
dimension (`m = x.mean(axis=0)`, examples of rank 2 placed `P('x', None)` beyond the batch on the spmd axis
`'y'`): JAX fails (`For primitive broadcast_in_dim, context mesh ...`, eager and under jit, any check_vma;
safety/measurements/capture_reduced_placed_input.py), so SPMD003 stays, and lifting it is unsafe."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    m = x.mean(axis=0)
    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('y', 'x', None)))
    result = jax.vmap(block, spmd_axis_name='y')(xs)
    return result, (xs0 * 2.0 + 1.0) * xs0.mean(axis=1, keepdims=True)
