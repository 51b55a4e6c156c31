import jax
from jax.sharding import AxisType


def training_mesh():
    return jax.make_mesh((2, 4), ("data", "model"), axis_types=(AxisType.Auto, AxisType.Auto))


MESH = training_mesh()
