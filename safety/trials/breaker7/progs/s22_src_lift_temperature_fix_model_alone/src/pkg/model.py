import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import MESH, MODEL


def softmax_t(logits, temperature):
    def body(b):
        return jnp.exp(b / temperature)
    e = jax.shard_map(body, mesh=MESH, in_specs=P(MODEL), out_specs=P(MODEL))(logits)
    return e / jnp.sum(e)
