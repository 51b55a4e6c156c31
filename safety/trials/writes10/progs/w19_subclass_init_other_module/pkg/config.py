import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh

from pkg.base import Base


class TrainConfig(Base):
    def __init__(self):
        super().__init__(data_axis="data")


CFG = TrainConfig()
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
