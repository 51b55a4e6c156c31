"""Specs spelled `P(*AXES[:1])` and `P(*AXES[-2:-1])`: slices of the module's tuple of axis names, starred."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

AXES = ('data', 'model')
MESH = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * 2)
ACT = P(*AXES[:1])
OUT = P(*AXES[-2:-1])


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=ACT, out_specs=OUT)(x)


def main():
    xs = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    result = jax.vmap(layer, spmd_axis_name='model')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
