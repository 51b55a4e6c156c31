import functools

import jax
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
CONSTRAIN = functools.partial(jax.lax.with_sharding_constraint, shardings=NamedSharding(MESH, P('y')))
