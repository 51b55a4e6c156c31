import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def block(x):
    return jax.shard_map(lambda b: jnp.abs(b) + 1.0, mesh=MESH, in_specs=P(None, "data"), out_specs=P(None, "data"))(x)
