import jax
import numpy as np
from jax.sharding import Mesh

MESH = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ("batch", "data", "model"))
