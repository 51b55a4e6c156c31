import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Layer:
    def __init__(self, names):
        self.names = names

    def __call__(self, x):
        return jax.shard_map(
            lambda b: b * 2.0, mesh=MESH, in_specs=P("model"), out_specs=P("model"), axis_names=self.names
        )(x)
