import jax
import numpy as np
from pkg import config, model


def compute():
    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0
    rows, cols = config.MESH_SHAPE
    return jax.vmap(model.block, spmd_axis_name='x')(xs) + rows * 10 + cols
