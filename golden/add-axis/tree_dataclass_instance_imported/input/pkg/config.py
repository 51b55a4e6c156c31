import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh


@dataclasses.dataclass(frozen=True)
class Config:
    batch_axis: str = 'x'
    width: int = 8


CFG = Config()

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
