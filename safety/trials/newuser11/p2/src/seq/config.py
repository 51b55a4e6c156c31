"""Mesh and axis names."""
import jax
from jax.sharding import AxisType

DATA, MODEL = "data", "model"
AXES = (DATA, MODEL)
MESH_SHAPE = (2, 4)
MESH = jax.make_mesh(MESH_SHAPE, AXES, axis_types=(AxisType.Auto,) * len(AXES))
AXIS_SIZE = dict(zip(AXES, MESH_SHAPE))
