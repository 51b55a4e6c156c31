import jax
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def body(v):
    return v * 2.0 + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
