"""The body multiplies its block by a module-level array shaped for one block: strip would break it."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.array([1., 2.])


def scale(b):
    return b * W


def layer(x):
    return jax.shard_map(scale, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 4, dtype=jnp.float32).reshape(4, 4)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * np.tile(np.asarray(W), 2)
    return result, reference
