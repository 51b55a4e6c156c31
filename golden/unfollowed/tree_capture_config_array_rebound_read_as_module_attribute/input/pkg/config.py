import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"

mesh = Mesh(np.array(jax.devices()).reshape(4, 2), (DATA, MODEL))

W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)
FLAG = True
if FLAG:
    W = W[None, :]
