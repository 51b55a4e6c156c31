import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh


@dataclasses.dataclass
class TrainConfig:
    data_axis: str = 'data'


CFG = TrainConfig()
mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'data', 'model'))
