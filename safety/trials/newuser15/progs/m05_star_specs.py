"""Specs from P(*names) with a module tuple of logical names; collision."""
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType

AXES = ('data', 'model')
MESH = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * 2)
ACT = P(*AXES[:1])


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=ACT, out_specs=ACT)(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(layer, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
