import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import get_mesh


def block(x):
    return jax.shard_map(lambda b: jnp.sqrt(b * b + 1.0), mesh=get_mesh(), in_specs=P("data"), out_specs=P("data"))(x)
