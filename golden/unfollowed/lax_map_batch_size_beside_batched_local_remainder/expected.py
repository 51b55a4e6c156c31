"""`jax.lax.map(block, x, batch_size=3)` between a vmap with `spmd_axis_name='x'` and a check_vma=True shard_map
whose body's one binary step is beside `m`, a per-example value computed in `block` and closed over
(`jnp.cumsum(b, axis=-1) * m`). Measured on jax 0.10.2
(safety/measurements/spmd007_lax_map_beside_batched_capture.py; fuzz seed 370569): with `m` batched by the
vmap it runs and matches when the batch size divides the 8 rows the map maps (batch_size=2), and fails on the
capture with a remainder (batch_size=3: `AssertionError: ManualAxisType`); with `m` not batched it fails
with SPMD007's error. spmdfix reads neither the batching of a value on a staged way nor the mapped length: an
SPMD910 record at the map, no SPMD007."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(x):
    m = x.mean() + 2.0

    def body(b):
        return jnp.cumsum(b, axis=-1) * m

    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


@functools.partial(jax.vmap, spmd_axis_name='x')
def apply(x):
    return jax.lax.map(block, x, batch_size=3)


def main():
    xs = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    m = xs.mean(axis=-1, keepdims=True) + 2.0
    return apply(xs), np.cumsum(xs, axis=-1) * m
