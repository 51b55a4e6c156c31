import jax
import numpy as np
from jax.sharding import AxisType
from pkg import model

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def compute():
    xs = np.arange(64, dtype=np.float32).reshape(8, 8) / 10.0
    with jax.set_mesh(mesh):
        return jax.jit(jax.vmap(model.block, spmd_axis_name='x'))(xs)
