from typing import NamedTuple

import jax
import numpy as np
from jax.sharding import Mesh


class Run(NamedTuple):
    mesh: Mesh
    global_batch: int


RUN = Run(Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model")), 16)
