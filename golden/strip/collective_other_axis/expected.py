"""The body sums over 'y' (psum); the stripped axis 'x' is not used by any collective."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def fold(v):
    return jax.lax.psum(v * v, 'y')


def layer(x):
    return jax.shard_map(fold, mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, None))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    sq = np.asarray(xs) ** 2
    reference = sq.reshape(4, 4, 4, 2).sum(axis=2)
    return result, reference
