import jax
import numpy as np
from jax.sharding import Mesh

DATA = 'data'
MODEL = 'model'
MESH = Mesh(np.array(jax.devices()).reshape(1, 4, 2), ('batch', DATA, MODEL))
