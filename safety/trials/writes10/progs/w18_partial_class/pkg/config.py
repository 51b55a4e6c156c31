import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh

import functools


@dataclasses.dataclass
class TrainConfig:
    data_axis: str = "model"


CFG = functools.partial(TrainConfig, data_axis="data")()
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
