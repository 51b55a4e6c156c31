import numpy as np
import jax
from jax.sharding import Mesh, PartitionSpec as P
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
