import jax
from jax.sharding import PartitionSpec as P

import pkg.config as cfg
from pkg.config import mesh


def block(x):
    def body(b):
        return b * cfg.W

    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
