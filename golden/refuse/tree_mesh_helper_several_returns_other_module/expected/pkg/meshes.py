import jax
import numpy as np
from jax.experimental import mesh_utils
from jax.sharding import Mesh


def create_mesh(mesh_shape, axis_names, flat=False):
    if flat:
        return Mesh(np.array(jax.devices()).reshape(mesh_shape), axis_names)
    return Mesh(mesh_utils.create_device_mesh(mesh_shape), axis_names)
