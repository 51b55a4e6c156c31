import jax
import numpy as np
from jax.sharding import AxisType, Mesh

AXES = ("data", "model")
mesh = jax.make_mesh((2, 4), AXES, axis_types=(AxisType.Auto,) * len(AXES))
