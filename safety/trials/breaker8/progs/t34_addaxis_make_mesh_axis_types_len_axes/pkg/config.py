import jax
from jax.sharding import AxisType

AXES = ("data", "model")
MESH = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * len(AXES))
