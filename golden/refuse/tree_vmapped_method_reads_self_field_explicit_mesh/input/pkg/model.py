import dataclasses

import jax
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Explicit, AxisType.Explicit))


@dataclasses.dataclass
class Block:
    axis: str = 'model'
    scale: float = 2.0

    def apply(self, x):
        # the body closes over `self` (its scale): the instance is no argument of the vmap's call
        return jax.shard_map(lambda b: b * self.scale, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis))(x)
