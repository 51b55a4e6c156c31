import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding, PartitionSpec as P

from lm.config import ACT_SPEC, EMBED


def embed_and_norm(mesh, tokens, table):
    h = table[tokens]                                   # [seq, embed]
    h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P(*ACT_SPEC)))
    return h / jnp.sqrt(jnp.mean(h ** 2, axis=-1, keepdims=True) + 1e-6)
