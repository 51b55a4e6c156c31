"""Original: mesh = Mesh(devices.reshape(2, 4), ('x', 'y')); another placement reads the mesh's axis names:
NamedSharding(mesh, P(*mesh.axis_names)) for a (2, 4) array. Applied: add-axis -> reshape(1, 2, 4),
('batch', 'x', 'y'), spmd_axis_name='batch'. The spec built from the axis names now has rank 3: device_put raises."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    bias = jax.device_put(jnp.ones((2, 4)), NamedSharding(mesh, P(*mesh.axis_names)))
    result = jax.vmap(layer, spmd_axis_name='batch')(xs) + bias.sum()
    return result, np.asarray(xs) * 2.0 + 8.0
