import jax
import numpy as np
from jax.sharding import AxisType
from pkg import model

model.mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def compute():
    xs = np.arange(16, dtype=np.float32).reshape(2, 8)
    return jax.vmap(model.block, spmd_axis_name='x')(xs)
