from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH


def rows(axis):
    return NamedSharding(MESH, P(axis))
