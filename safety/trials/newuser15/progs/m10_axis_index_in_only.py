"""Specs name only 'model' in and out; the body reads axis_index('data') into a value psum'd back over 'data'
(invariant again); spmd vmap over 'data'."""
import jax, jax.numpy as jnp, numpy as np
from jax.sharding import PartitionSpec as P, AxisType

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def layer(x):
    def body(b):
        return jax.lax.psum(b * (jax.lax.axis_index('data') + 1).astype(b.dtype), 'data')
    return jax.shard_map(body, mesh=MESH, in_specs=P(None, 'model'), out_specs=P(None, 'model'))(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    return jax.vmap(layer, spmd_axis_name='data')(xs), np.asarray(xs) * 3.0
