import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from .config import MESH, MODEL


def col_norm(x):
    def body(b):
        return b / jnp.sqrt(jax.lax.psum(jnp.sum(b * b), MODEL))
    return jax.shard_map(body, mesh=MESH, in_specs=P(MODEL), out_specs=P(MODEL))(x)
