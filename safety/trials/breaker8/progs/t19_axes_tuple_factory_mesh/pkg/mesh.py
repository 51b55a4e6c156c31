import jax
import numpy as np
from jax.sharding import Mesh

from pkg.config import AXES, SHAPE


def make_mesh():
    return Mesh(np.array(jax.devices()).reshape(SHAPE), AXES)


MESH = make_mesh()
