import jax
import numpy as np
from jax.sharding import Mesh

DATA = 'x'
MODEL = 'y'

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', DATA, MODEL))
