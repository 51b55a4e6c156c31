"""A 4x4 mesh from create_device_mesh: needs 16 devices, so this case is static only."""
import jax
import jax.numpy as jnp
from jax.experimental import mesh_utils
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(mesh_utils.create_device_mesh((4, 4)), ('data', 'model'))


def bias_relu(h, b):
    return jax.nn.relu(h + b)


def layer(h, b):
    return jax.shard_map(
        bias_relu,
        mesh=mesh,
        in_specs=(P(None, 'model'), P(None, 'model')),
        out_specs=P(None, 'model'),
    )(h, b)


batched_layer = jax.vmap(layer, in_axes=(0, None), spmd_axis_name='data')
