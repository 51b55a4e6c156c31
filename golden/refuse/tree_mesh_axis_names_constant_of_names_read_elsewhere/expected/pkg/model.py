import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import mesh


def block(x):
    return jax.shard_map(lambda b: jnp.tanh(b) * 2.0, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)
