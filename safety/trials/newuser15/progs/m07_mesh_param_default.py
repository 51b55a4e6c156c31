"""A shard_map wrapper taking the mesh and axis as parameter defaults; collision through defaults."""
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)
DATA = 'data'


def sharded_double(x, mesh=MESH, axis=DATA):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(axis), out_specs=P(axis))(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(sharded_double, spmd_axis_name=DATA)(xs), np.asarray(xs) * 2.0
