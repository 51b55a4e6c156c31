import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

SPECS = {'act': P('model')}
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
