"""The body reads its position along 'x' (axis_index): strip is never offered."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return v + jax.lax.axis_index('x').astype(v.dtype) * 100.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) + np.repeat([0.0, 100.0], 4)
    return result, reference
