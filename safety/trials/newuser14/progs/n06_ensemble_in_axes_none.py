"""Ensemble: params batched, data shared (in_axes=(0, None)); collision in out_specs."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('ens', 'y'), axis_types=(AxisType.Auto,) * 2)


def member(w, x):
    f = jax.shard_map(lambda a, b: a * b, mesh=mesh, in_specs=(P(), P('ens')), out_specs=P('ens'))
    return f(w, x)


def main():
    ws = jnp.arange(2, dtype=jnp.float32)
    x = jnp.ones((8,), jnp.float32)
    return jax.vmap(member, in_axes=(0, None), spmd_axis_name='ens')(ws, x), np.asarray(ws)[:, None] * np.ones((1, 8))
