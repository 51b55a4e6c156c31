import jax
import numpy as np
from jax.sharding import AxisType, Mesh

mesh = jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
