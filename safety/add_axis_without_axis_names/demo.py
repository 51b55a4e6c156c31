"""Original: Mesh (2, 4) ('x', 'y'), shard_map(axis_names={'x', 'y'}), in/out P('x'), spmd 'x'.
Applied: add-axis (mesh (1, 2, 4) ('batch', 'x', 'y'), spmd_axis_name='batch') but axis_names left without 'batch'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def body(v):
    return v * 2.0 + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x', 'y'})(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='batch')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
