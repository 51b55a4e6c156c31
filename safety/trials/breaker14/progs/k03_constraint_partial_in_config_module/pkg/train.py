import jax
import numpy as np
from pkg import model


def compute():
    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(model.block, spmd_axis_name='x')(xs)
