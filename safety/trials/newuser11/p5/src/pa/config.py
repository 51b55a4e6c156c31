import jax
from jax.sharding import AxisType
DATA, MODEL = "data", "model"
AXES = (DATA, MODEL)
MESH = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto, AxisType.Auto))
