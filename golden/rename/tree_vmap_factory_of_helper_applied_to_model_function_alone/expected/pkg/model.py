import jax
from jax.sharding import PartitionSpec as P

from pkg.config import mesh


def forward(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)
