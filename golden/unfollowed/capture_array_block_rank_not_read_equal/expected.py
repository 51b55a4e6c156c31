"""Fuzz seed 400513: an spmd vmap applied inside a helper to its parameters (the vmapped
function and the batch are parameters of the helper), reaching an all-replicated shard_map whose body closes over the module array `W` (8,)
in `b * W`. Whether that runs depends on the block's rank (the measured broadcast rule of SPMD003: higher than
W's runs, equal fails with ManualAxisType), which spmdfix does not read through the helper's parameter: an
SPMD910 record at `b`, not a guessed finding. Here an example has shape (8,), so it fails (ManualAxisType): the block has rank 1, as W."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def body(b):
    return b * W


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def accumulate(fn, xs, spmd_axis_name='x'):
    return jax.vmap(fn, spmd_axis_name=spmd_axis_name)(xs)


def main():
    xs = (np.arange(np.prod((8, 8)), dtype=np.float32).reshape(8, 8) - 170.0) / 128.0
    return accumulate(block, jnp.asarray(xs)), xs * np.asarray(W)
