import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH
from pkg.utils import row_sum


def block(x):
    y = jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P("data", None), out_specs=P("data", None))(x)
    return row_sum(y)
