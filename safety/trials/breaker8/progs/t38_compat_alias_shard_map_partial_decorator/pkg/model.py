from functools import partial

from jax.sharding import PartitionSpec as P

from pkg import compat
from pkg.config import DATA, MESH


@partial(compat.shard_map, mesh=MESH, in_specs=P(DATA), out_specs=P(DATA))
def block(b):
    return b * 6.0
