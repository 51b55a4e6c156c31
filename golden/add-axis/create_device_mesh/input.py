import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import mesh_utils
from jax.sharding import Mesh, PartitionSpec as P

devices = mesh_utils.create_device_mesh((2, 4))
mesh = Mesh(devices, ('x', 'y'))


def body(v):
    return v + 1.0


def apply(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(('x', 'y')), out_specs=P(('x', 'y')))(x)


def model(x):
    return jax.lax.fori_loop(0, 3, lambda i, c: apply(c), x)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(model, spmd_axis_name='y')(x)
    reference = np.asarray(x) + 3.0
    return result, reference
