import jax
import numpy as np
from jax.sharding import Mesh

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
