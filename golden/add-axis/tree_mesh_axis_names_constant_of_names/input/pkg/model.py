import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, mesh


def block(x):
    return jax.shard_map(lambda b: jnp.tanh(b) * 2.0, mesh=mesh, in_specs=P(DATA), out_specs=P(DATA))(x)
