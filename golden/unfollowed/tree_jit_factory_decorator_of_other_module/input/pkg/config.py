import functools

import jax
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
JIT_Y = functools.partial(jax.jit, out_shardings=NamedSharding(MESH, P('y')))
