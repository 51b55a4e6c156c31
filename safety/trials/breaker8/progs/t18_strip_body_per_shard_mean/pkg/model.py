import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, MESH


def _centre(b):
    return b - jnp.mean(b, axis=0, keepdims=True)


def block(x):
    return jax.shard_map(_centre, mesh=MESH, in_specs=P(DATA, None), out_specs=P(DATA, None))(x)
