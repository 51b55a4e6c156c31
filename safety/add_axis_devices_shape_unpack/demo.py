"""Original: mesh = Mesh(devices.reshape(2, 4), ('x', 'y')); n_a, n_b = mesh.devices.shape. Applied: add-axis ->
reshape(1, 2, 4), ('batch', 'x', 'y'), spmd_axis_name='batch'. Unpacking the 3-element shape into two names raises."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    n_a, n_b = mesh.devices.shape
    xs = jnp.arange(n_a * 2 * n_b, dtype=jnp.float32).reshape(n_a * 2, n_b)
    result = jax.vmap(layer, spmd_axis_name='batch')(xs)
    return result, np.asarray(xs) * 2.0
