import jax
import numpy as np
from jax.sharding import Mesh


def make_mesh(shape, names):
    return Mesh(np.array(jax.devices()).reshape(shape), names)
