"""Original: mesh = Mesh(devices.reshape(2, 4), ('x', 'y')); rows = mesh.devices.shape[0] scales the body.
Applied: add-axis -> reshape(1, 2, 4), ('batch', 'x', 'y'), spmd_axis_name='batch'. rows is now 1 instead of 2:
the program runs and returns different values."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))
rows = mesh.devices.shape[0]


def layer(x):
    return jax.shard_map(lambda b: b * rows, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='batch')(xs)
    return result, np.asarray(xs) * 2.0
