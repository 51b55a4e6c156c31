"""vmap without spmd_axis_name (and with spmd_axis_name=None) over a shard_map using 'x'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return v * v


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    first = jax.vmap(layer)(xs)
    result = jax.vmap(layer, spmd_axis_name=None)(first)
    reference = np.asarray(xs) ** 4
    return result, reference
