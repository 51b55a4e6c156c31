"""jit-wrapped step under the spmd vmap, specs in a module dict (collision)."""
import dataclasses
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P, AxisType

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)
SPECS = {'act': P('data', 'model')}


@jax.jit
def step(x):
    return jax.shard_map(lambda b: b * 3.0, mesh=mesh, in_specs=SPECS['act'], out_specs=SPECS['act'])(x)


def main():
    xs = jnp.arange(2 * 4 * 8, dtype=jnp.float32).reshape(2, 4, 8)
    return jax.vmap(step, spmd_axis_name='data')(xs), np.asarray(xs) * 3.0
