"""No collision: spmd over 'data', shard_map over 'model' (runs)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def per_example(x):
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('model'), out_specs=P('model'))(x)


def main():
    xs = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    return jax.vmap(per_example, spmd_axis_name='data')(xs), np.asarray(xs) + 1.0
