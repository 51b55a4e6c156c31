import jax
import numpy as np
from jax.sharding import Mesh


class Axes:
    DATA = "data"
    FSDP = "fsdp"
    MODEL = "model"


MESH = Mesh(np.array(jax.devices()).reshape(2, 2, 2), (Axes.DATA, Axes.FSDP, Axes.MODEL))
