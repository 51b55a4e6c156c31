import jax
import numpy as np
from jax.sharding import AxisType, Mesh

AXIS_TYPES = (AxisType.Auto, AxisType.Auto)
mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=AXIS_TYPES)
