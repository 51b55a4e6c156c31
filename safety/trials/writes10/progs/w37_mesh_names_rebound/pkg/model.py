import jax
from jax.sharding import PartitionSpec as P

from pkg import config


def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=config.make_mesh(), in_specs=P("data"), out_specs=P("data"))(x)
