from jax.sharding import PartitionSpec as P

from pkg.config import DATA
from pkg.utils import smap


def block(x):
    return smap(lambda b: b * 5.0, in_specs=P(DATA), out_specs=P(DATA))(x)
