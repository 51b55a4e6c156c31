"""pmap-style per-example grads: vmap(value_and_grad(loss), spmd_axis_name) with a shard_map in the loss."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def loss(w, x):
    y = jax.shard_map(lambda a, b: a * b, mesh=mesh, in_specs=(P(), P('data')), out_specs=P('data'))(w, x)
    return jnp.sum(y)


def main():
    w = jnp.float32(2.0)
    xs = jnp.ones((2, 8), jnp.float32)
    v, g = jax.vmap(jax.value_and_grad(loss), in_axes=(None, 0), spmd_axis_name='data')(w, xs)
    return (v, g), (np.full((2,), 16.0), np.full((2,), 8.0))
