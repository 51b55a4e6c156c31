"""The mesh of the run and its axis names."""
import jax
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
