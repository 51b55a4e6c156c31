import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Layer:
    def __init__(self, scale, axis="data"):
        self.scale = scale
        self.axis = axis

    def __call__(self, x):
        return jax.shard_map(lambda b: b * self.scale, mesh=MESH, in_specs=P(self.axis), out_specs=P(self.axis))(x)
