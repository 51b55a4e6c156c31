import jax
from jax.sharding import PartitionSpec as P


def to_batch(a):
    return jax.sharding.reshard(a, P('x', None))
