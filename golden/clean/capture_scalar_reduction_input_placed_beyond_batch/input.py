"""A shard_map body on an Explicit mesh closes over `m = x.mean() + 2.0`, which the spmd vmap (a decorator)
batches; the batch is placed on the spmd axis `'y'` and `x` also on `'x'` beyond its batch dimension
(`P('y', 'x')`). A full reduction to a scalar has no dimension beyond the batch: it runs and matches with
check_vma=True, eager and under jit (safety/measurements/capture_reduced_placed_input.py; fuzz seeds 23243,
23306), so no SPMD003.
"""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0
    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


@functools.partial(jax.vmap, spmd_axis_name='y')
def apply(x):
    return block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('y', 'x')))
    result = apply(xs)
    return result, (xs0 * 2.0 + 1.0) * (xs0.mean(axis=1, keepdims=True) + 2.0)
