import dataclasses

import jax
from jax.sharding import AxisType


@dataclasses.dataclass(frozen=True)
class ParallelConfig:
    data_axis: str = 'data'
    model_axis: str = 'model'


CFG = ParallelConfig()
MESH = jax.make_mesh((2, 4), (CFG.data_axis, CFG.model_axis), axis_types=(AxisType.Auto,) * 2)
