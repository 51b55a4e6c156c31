from typing import NamedTuple

import jax
import numpy as np
from jax.sharding import Mesh


class Axes(NamedTuple):
    data: str = "data"
    model: str = "model"


AX = Axes()
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), (AX.data, AX.model))
