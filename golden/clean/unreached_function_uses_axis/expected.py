"""Two shard_maps: the one reached from the spmd vmap uses 'y'; the one using 'x' is called outside it."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def double(v):
    return v * 2.0


def encode(x):
    return jax.shard_map(double, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def decode(ys):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x', None), out_specs=P('x', None))(ys)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    encoded = jax.vmap(encode, spmd_axis_name='x')(xs)
    result = decode(encoded)
    reference = np.asarray(xs) * 4.0
    return result, reference
