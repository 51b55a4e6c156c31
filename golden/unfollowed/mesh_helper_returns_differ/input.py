import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P


def build_mesh(wide):
    devices = np.array(jax.devices()).reshape(2, 4)
    if wide:
        return Mesh(devices, ('x', 'y'))
    return Mesh(devices, ('a', 'b'))


def main():
    mesh = build_mesh(len(jax.devices()) >= 8)
    f = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    x = jax.device_put(x, NamedSharding(mesh, P('x', None)))
    return jax.vmap(f, spmd_axis_name='x')(x), np.arange(4 * 8, dtype=np.float32).reshape(4, 8) * 2.0 + 1.0
