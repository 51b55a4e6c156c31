import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

# Other code reads the mesh's rank and layout: a size-1 axis added to it would change `bias`'s spec rank
# (device_put raises) and `rows` (1 instead of 2), so add-axis is unsafe and names each read.
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
rows = mesh.devices.shape[0]


def layer(x):
    return jax.shard_map(lambda b: b * rows, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    bias = jax.device_put(jnp.ones((2, 4)), NamedSharding(mesh, P(*mesh.axis_names)))
    result = jax.vmap(layer, spmd_axis_name='x')(xs) + bias.sum()
    return result, np.asarray(xs) * 2.0 + 8.0
