import jax
import numpy as np
from jax.sharding import Mesh


class Config:
    def __init__(self, data="data", model="model"):
        self.data = data
        self.model = model


CFG = Config()
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), (CFG.data, CFG.model))
