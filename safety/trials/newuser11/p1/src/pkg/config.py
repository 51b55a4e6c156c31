"""Mesh and axis names."""
import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"
AXES = (DATA, MODEL)
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), AXES)
