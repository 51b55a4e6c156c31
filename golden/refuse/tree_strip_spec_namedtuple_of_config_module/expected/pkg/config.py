from typing import NamedTuple

import jax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


class Specs(NamedTuple):
    rows: P


SPECS = Specs(rows=P('x'))
