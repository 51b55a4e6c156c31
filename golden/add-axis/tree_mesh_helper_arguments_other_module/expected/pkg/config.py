import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"


def build_mesh(dp, tp):
    return Mesh(np.array(jax.devices()[: dp * tp]).reshape(1, dp, tp), ("batch", DATA, MODEL))
