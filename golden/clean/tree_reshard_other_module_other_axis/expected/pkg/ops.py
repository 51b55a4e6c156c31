import jax
from jax.sharding import PartitionSpec as P


def place(v):
    return jax.sharding.reshard(v * 2.0, P('y'))
