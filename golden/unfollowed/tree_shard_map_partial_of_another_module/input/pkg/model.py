from jax.sharding import PartitionSpec as P

from pkg.utils import smap


def block(v):
    return smap(lambda b: b * 5.0, in_specs=P('data'), out_specs=P('data'))(v)
