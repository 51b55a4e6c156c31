"""A psum over the spmd axis inside the shard_map body (pmap habit)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def step(x):
    def body(b):
        return b / jax.lax.psum(1.0, 'data')
    return jax.shard_map(body, mesh=mesh, in_specs=P('model'), out_specs=P('model'))(x)


def main():
    xs = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    return jax.vmap(step, spmd_axis_name='data')(xs), np.asarray(xs) / 2.0
