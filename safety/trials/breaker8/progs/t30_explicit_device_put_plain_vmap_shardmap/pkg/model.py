import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MODEL


def block(x):
    return jax.shard_map(lambda b: b * 0.5, in_specs=P(MODEL), out_specs=P(MODEL))(x)
