"""The vmapped function reads the mesh through the type of its traced example
(`jax.typeof(x).sharding.mesh.axis_sizes`), an array the module does not visibly place: it may carry this mesh,
whose axis sizes add-axis changes. add-axis is unsafe and names the read: nothing applied without
--unsafe-fixes."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(x):
    sizes = jax.typeof(x).sharding.mesh.axis_sizes
    scale = sizes[0] if sizes else 1
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x) * scale


def main():
    a = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 8.0
    xs = jax.device_put(a, NamedSharding(mesh, P('y')))
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    return result, np.asarray(jax.vmap(layer)(xs))
