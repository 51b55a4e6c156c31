import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh

import os

DATA = "model"
if os.environ.get("W33_RELOADED"):
    globals().update(DATA="data")
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
