"""Original: golden/refuse/add_axis_mesh_read_typeof_in_vmap, the vmapped function scales by the first axis size
of `jax.typeof(x).sharding.mesh`. Applied: add-axis -> reshape(1, 2, 4), ('batch', 'x', 'y'),
spmd_axis_name='batch'. The traced example's mesh now starts with the size-1 axis: the program runs and returns
different values from the plain vmap on the original mesh (its reference)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))
MESH_BEFORE = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))  # the reference: the program before the fix


def layer(x):
    sizes = jax.typeof(x).sharding.mesh.axis_sizes
    scale = sizes[0] if sizes else 1
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x) * scale


def main():
    a = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 8.0
    xs = jax.device_put(a, NamedSharding(mesh, P('y')))
    result = jax.vmap(layer, spmd_axis_name='batch')(xs)
    return result, np.asarray(jax.vmap(layer)(jax.device_put(a, NamedSharding(MESH_BEFORE, P('y')))))
