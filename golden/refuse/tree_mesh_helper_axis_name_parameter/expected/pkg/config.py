import jax
import numpy as np
from jax.sharding import Mesh

DATA, MODEL = "data", "model"


def build_mesh(dp, tp, first=DATA):
    return Mesh(np.array(jax.devices()[: dp * tp]).reshape(dp, tp), (first, MODEL))
