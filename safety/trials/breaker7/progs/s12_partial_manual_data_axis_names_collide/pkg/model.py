import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, MESH


def rows(x):
    return jax.shard_map(lambda b: b + jnp.float32(1.0), mesh=MESH, in_specs=P(DATA), out_specs=P(DATA),
                         axis_names={DATA})(x)
