import jax
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH

ROWS = P(DATA, None)


def forward(x):
    return jax.shard_map(lambda a: a * 2.0, mesh=MESH, in_specs=ROWS, out_specs=ROWS)(x)
