"""The program reads the mesh through an array placed on it only in ways add-axis keeps: the sharding's spec
(`xs.sharding.spec`), the size of a named axis and the device count of its mesh, and a second placement with
the array's sharding (`jax.device_put(w, xs.sharding)`). add-axis stays safe."""
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
    per_row = xs.sharding.mesh.size // xs.sharding.mesh.shape['y']
    ranked = len(xs.sharding.spec)
    ws = jax.device_put(jnp.ones((4, 8), jnp.float32), xs.sharding)
    result = jax.vmap(layer, spmd_axis_name='batch')(xs) * per_row * ranked + ws
    return result, (np.asarray(a) * 2.0 + 1.0) * 2 + 1.0
