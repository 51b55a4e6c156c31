"""The body closes over a module-level constant, which the spmd vmap does not batch."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))

BIAS = jnp.array([1.0, -1.0], dtype=jnp.float32)


def layer(x):
    return jax.shard_map(lambda b: b + BIAS, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) + np.tile(np.array([1.0, -1.0], dtype=np.float32), 4)
    return result, reference
