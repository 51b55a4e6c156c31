import jax
import numpy as np
from jax.sharding import Mesh

DATA = 'x'
SCALE = 2.0

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, 'y'))
