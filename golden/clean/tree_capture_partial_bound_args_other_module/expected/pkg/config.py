import jax
import numpy as np
from jax.sharding import Mesh

DATA = 'x'
MODEL = 'y'

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
