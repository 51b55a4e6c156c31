import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"

MESH0 = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), (DATA, MODEL))
