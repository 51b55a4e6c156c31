"""spmd_axis_name a tuple of two axes; shard_map names one of them (collision)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 2, 2), ('pod', 'data', 'model'), axis_types=(AxisType.Auto,) * 3)


def f(x):
    return jax.shard_map(lambda b: b - 1.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)


def main():
    xs = jnp.arange(4 * 4, dtype=jnp.float32).reshape(4, 4)
    return jax.vmap(f, spmd_axis_name=('pod', 'data'))(xs), np.asarray(xs) - 1.0
