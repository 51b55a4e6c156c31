import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# A helper returns the mesh; one caller passes it to the shard_map (allowed), another counts its axes
# (`len(get_mesh().axis_names)` would be 3 after a new axis): add-axis is unsafe and names that use.
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def get_mesh():
    return mesh


def layer(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=get_mesh(), in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    rank = len(get_mesh().axis_names)
    return jax.vmap(layer, spmd_axis_name='x')(xs) * rank, np.asarray(xs) * 4.0
