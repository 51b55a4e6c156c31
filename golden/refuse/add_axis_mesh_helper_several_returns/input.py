import math

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, Mesh, PartitionSpec as P


def create_mesh(mesh_shape, axis_names, iota_order=False, axis_types=None):
    size = math.prod(mesh_shape)
    if iota_order:
        devices = sorted(jax.devices(), key=lambda d: d.id)
        return Mesh(np.array(devices[:size]).reshape(mesh_shape), axis_names, axis_types=axis_types)
    if axis_types is None:
        axis_types = (AxisType.Auto,) * len(mesh_shape)
    return jax.make_mesh(mesh_shape, axis_names, axis_types)


def main():
    mesh = create_mesh((2, 4), ('x', 'y'))
    f = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(f, spmd_axis_name='x')(x), np.asarray(x) * 2.0 + 1.0
