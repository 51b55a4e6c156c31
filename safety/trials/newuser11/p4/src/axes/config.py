"""Mesh and axis names, and the size of each axis."""
import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"
AXES = (DATA, MODEL)
SIZES = dict(zip(AXES, (2, 4)))
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), AXES)
