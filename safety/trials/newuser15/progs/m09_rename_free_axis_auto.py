"""Auto axes. Three-axis mesh; spmd vmap over 'data' collides; 'pod' is free: rename expected."""
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType

MESH = jax.make_mesh((2, 2, 2), ('pod', 'data', 'model'), axis_types=(AxisType.Auto,) * 3)


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('data', 'model'), out_specs=P('data', 'model'))(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(layer, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
