import dataclasses

import jax
import numpy as np
from jax.sharding import Mesh


@dataclasses.dataclass(frozen=True)
class Config:
    d_model: int = 8
    d_ff: int = 16
    n_heads: int = 2


DATA = "data"
MODEL = "model"
CFG = Config()


def make_mesh():
    return Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))
