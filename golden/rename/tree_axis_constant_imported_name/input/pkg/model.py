import jax
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, mesh


def forward(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(DATA), out_specs=P(DATA))(x)
