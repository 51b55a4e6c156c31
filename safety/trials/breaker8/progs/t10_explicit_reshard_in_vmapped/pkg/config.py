import jax
from jax.sharding import AxisType

MESH = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Explicit, AxisType.Explicit))
