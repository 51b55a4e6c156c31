import jax
from jax.sharding import PartitionSpec as P

from pkg.config import mesh


def block(x, w):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P(), out_specs=P())(x)
