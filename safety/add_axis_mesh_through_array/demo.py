"""Original: golden/refuse/add_axis_mesh_read_through_array, `groups = xs.sharding.mesh.devices.shape[0]` scales
the result. Applied: add-axis -> reshape(1, 2, 4), ('batch', 'x', 'y'), spmd_axis_name='batch'. The mesh read
through the placed array now has devices.shape[0] == 1 instead of 2: the program runs and returns different
values."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    a = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 8.0
    xs = jax.device_put(a, NamedSharding(mesh, P('y')))
    groups = xs.sharding.mesh.devices.shape[0]
    result = jax.vmap(layer, spmd_axis_name='batch')(xs) * groups
    return result, (np.asarray(a) * 2.0 + 1.0) * 2
