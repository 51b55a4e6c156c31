import jax
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"


def make_mesh():
    """The training mesh: 2 data replicas x 4 model shards."""
    return Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))


MESH = make_mesh()
