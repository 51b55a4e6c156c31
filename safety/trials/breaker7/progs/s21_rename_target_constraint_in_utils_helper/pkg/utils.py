import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH


def shard_hidden(h):
    return jax.lax.with_sharding_constraint(h, NamedSharding(MESH, P("fsdp")))
