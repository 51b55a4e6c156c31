import jax
import numpy as np
from jax.sharding import Mesh

CFG = {"axes": {"data": "data", "model": "model"}, "mesh_shape": (2, 4)}
MESH = Mesh(np.array(jax.devices()).reshape(CFG["mesh_shape"]), tuple(CFG["axes"].values()))
