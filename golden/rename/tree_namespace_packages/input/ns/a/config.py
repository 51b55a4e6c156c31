import jax
import numpy as np
from jax.sharding import Mesh

DATA = 'x'
SPARE = 'y'
MODEL = 'z'
MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), (DATA, SPARE, MODEL))
