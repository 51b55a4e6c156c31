import jax
import jax.numpy as jnp
import numpy as np
from functools import partial
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
