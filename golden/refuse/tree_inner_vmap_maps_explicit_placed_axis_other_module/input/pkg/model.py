import jax
from jax.sharding import PartitionSpec as P

from pkg.config import mesh


def block(x, w):
    return jax.shard_map(lambda b, w: b * w, mesh=mesh, in_specs=(P('data'), P()), out_specs=P('data'), check_vma=False)(x, w)
