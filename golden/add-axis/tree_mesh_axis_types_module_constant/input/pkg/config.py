"""The mesh, its axis types a module constant."""
import jax
from jax.sharding import AxisType

AXIS_TYPES = (AxisType.Auto, AxisType.Auto)
mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=AXIS_TYPES)
