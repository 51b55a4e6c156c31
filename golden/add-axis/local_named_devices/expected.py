import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# The mesh's device array is bound to `devices`; another function has a local of the same name bound to
# `jax.devices()`. That is another binding, not a use of the array: add-axis stays safe.
devices = np.array(jax.devices()).reshape(1, 2, 4)
mesh = Mesh(devices, ('batch', 'x', 'y'))


def device_count():
    devices = jax.devices()
    return len(devices)


def layer(x):
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='batch')(xs) * device_count()
    return result, (np.asarray(xs) + 1.0) * 8
