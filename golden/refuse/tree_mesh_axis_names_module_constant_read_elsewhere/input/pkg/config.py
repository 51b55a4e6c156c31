"""The mesh, its axis names a module constant, its axis types repeated by their number."""
import jax
from jax.sharding import AxisType

AXES = ("data", "model")
mesh = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * len(AXES))
