import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg import config as C


def attention_like(x):
    return jax.shard_map(lambda b: jax.nn.softmax(b, axis=-1), in_specs=P(None, C.DATA), out_specs=P(None, C.DATA))(x)
