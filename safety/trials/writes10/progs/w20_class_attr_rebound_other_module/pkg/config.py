import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh


class Axes:
    DATA = "model"


MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
