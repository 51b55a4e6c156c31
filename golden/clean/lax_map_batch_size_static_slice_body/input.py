"""Fuzz seed 110652: `jax.lax.map(block, x, batch_size=2)` between the spmd vmap and a check_vma=True shard_map
whose body applies `jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)` (a literal start, a static size) and
`b ** 2`. lax.map with a batch_size is an inner vmap over chunks, and it fails (`... was given out_specs which
require replication`) for the same bodies as an inner `jax.vmap`: those applying a binary primitive. A static
slice and an integer power are not binary: this runs and matches (measured on jax 0.10.2 with every batch_size,
eager and jit: safety/measurements/spmd007_lax_map_body_ops.py). No SPMD007."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


mesh = Mesh(devices=jax.devices(), axis_names=('x',))


def block(x):
    n = x.shape[-1] // (1)
    @functools.partial(jax.shard_map, mesh=mesh, in_specs=jax.P(), out_specs=jax.P(), check_vma=True)
    def body(b):
        b = jax.lax.dynamic_slice_in_dim(b, 0, n, axis=-1)
        return b ** 2
    return body(x)


def apply(x):
    return jax.lax.map(block, x, batch_size=2)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    xs = jnp.asarray(xs0)
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', None, None)))
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(xs)
    return result, xs0 ** 2
