import jax
from jax.sharding import PartitionSpec as P

from pkg.config import mesh


class Layer:
    AXIS = 'model'

    def __call__(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)


LAYER = Layer()
