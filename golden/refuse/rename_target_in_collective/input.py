"""The only mesh axis outside the specs ('z') is used by a psum in the body."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def body(v):
    return v + jax.lax.psum(v, 'z')


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 3.0
    return result, reference
