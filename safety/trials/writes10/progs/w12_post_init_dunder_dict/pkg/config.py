import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh


@dataclasses.dataclass
class TrainConfig:
    data_axis: str = "model"

    def __post_init__(self):
        self.__dict__["data_axis"] = "data"


CFG = TrainConfig()
MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
