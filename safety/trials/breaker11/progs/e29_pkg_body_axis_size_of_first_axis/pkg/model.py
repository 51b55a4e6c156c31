import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def apply(v):
    return jax.shard_map(lambda b: b * jax.lax.axis_size(jax.sharding.get_abstract_mesh().axis_names[0]), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)
