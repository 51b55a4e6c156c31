import jax
from jax.sharding import PartitionSpec as P

from pkg import config


def block(x):
    def body(b):
        return b * config.W

    return jax.shard_map(body, mesh=config.mesh, in_specs=P(), out_specs=P())(x)
