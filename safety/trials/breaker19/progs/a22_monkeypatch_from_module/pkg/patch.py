import jax
import numpy as np
from jax.sharding import Mesh

from pkg import config

config.MESH = Mesh(np.array(jax.devices())[::-1].reshape(2, 4), (config.DATA, config.MODEL))
