"""The mesh: its axis names a module constant of named axes, its axis types repeated by their number."""
import jax
from jax.sharding import AxisType

DATA, MODEL = "data", "model"
AXES = (DATA, MODEL)
mesh = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * len(AXES))
