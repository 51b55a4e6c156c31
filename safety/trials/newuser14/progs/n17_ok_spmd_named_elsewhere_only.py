"""jit(vmap(spmd_axis_name='data')) of a layer whose shard_map names only 'model' (runs)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def layer(x):
    y = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('model'), out_specs=P('model'))(x)
    return y + 1.0


def main():
    xs = jnp.arange(16, dtype=jnp.float32).reshape(2, 8)
    out = jax.jit(jax.vmap(layer, spmd_axis_name='data'))(xs)
    return out, np.asarray(xs) * 2.0 + 1.0
