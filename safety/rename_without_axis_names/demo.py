"""Original: 2x2x2 mesh, shard_map(axis_names={'x', 'y'}), in/out P('x', 'y'), spmd 'x' (raises).
Applied: rename spmd_axis_name 'x' -> 'z' but axis_names left without 'z'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def body(v):
    return v * 2.0


def layer(x):
    return jax.shard_map(
        body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'), axis_names={'x', 'y'}
    )(x)


def main():
    xs = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4)
    result = jax.vmap(layer, spmd_axis_name='z')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
