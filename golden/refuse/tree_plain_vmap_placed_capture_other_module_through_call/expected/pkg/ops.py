import jax
from jax.sharding import PartitionSpec as P

from pkg.meshes import mesh


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
