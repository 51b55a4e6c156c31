import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH


def _rows(b):
    return jnp.tanh(b) * 0.5 + b


def layer(x):
    return jax.shard_map(_rows, mesh=MESH, in_specs=P(DATA, None), out_specs=P(DATA, None))(x)
