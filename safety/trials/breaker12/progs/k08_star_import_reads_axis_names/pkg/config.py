import jax
from jax.sharding import AxisType

DATA = 'x'
MODEL = 'y'
MESH = jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(AxisType.Auto, AxisType.Auto))
