"""The program reads the mesh through an array placed on it: `xs.sharding.mesh.devices.shape[0]` is 2 here and
would be 1 once add-axis prepends its size-1 axis, and the result would change without an error. add-axis is
unsafe and names the read: nothing applied without --unsafe-fixes."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def layer(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    a = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 8.0
    xs = jax.device_put(a, NamedSharding(mesh, P('y')))
    groups = xs.sharding.mesh.devices.shape[0]
    result = jax.vmap(layer, spmd_axis_name='x')(xs) * groups
    return result, (np.asarray(a) * 2.0 + 1.0) * 2
