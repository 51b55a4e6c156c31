import jax
import numpy as np
from jax.sharding import AxisType, Mesh

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
