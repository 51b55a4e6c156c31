import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


class Base:
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
