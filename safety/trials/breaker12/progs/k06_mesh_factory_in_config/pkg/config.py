import jax
from jax.sharding import AxisType

DATA = 'x'


def make_mesh():
    return jax.make_mesh((2, 4), (DATA, 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


MESH = make_mesh()
