import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
