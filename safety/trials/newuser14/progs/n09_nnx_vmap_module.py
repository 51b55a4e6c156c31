"""flax nnx: nnx.vmap with spmd_axis_name over a function whose shard_map names it (collision)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

from flax import nnx

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def apply(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)


def main():
    xs = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    return nnx.vmap(apply, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
