"""lax.scan over layers inside the spmd-vmapped function; shard_map names the spmd axis (collision)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def layer(h, w):
    out = jax.shard_map(lambda b, c: b * c, mesh=mesh, in_specs=(P('data'), P()), out_specs=P('data'))(h, w)
    return out, None


def forward(x, ws):
    h, _ = jax.lax.scan(layer, x, ws)
    return h


def main():
    xs = jnp.ones((2, 8), jnp.float32)
    ws = jnp.array([2.0, 3.0], jnp.float32)
    return jax.vmap(forward, in_axes=(0, None), spmd_axis_name='data')(xs, ws), np.ones((2, 8)) * 6.0
