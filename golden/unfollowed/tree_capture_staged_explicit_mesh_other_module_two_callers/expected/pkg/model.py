import jax
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('data', 'model'))


def block(x, w):
    s = w * 2.0
    return jax.jit(jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P()))(x)
