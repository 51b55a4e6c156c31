import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def block(x):
    y = jax.sharding.reshard(x, P("model"))
    return jax.shard_map(lambda b: b - 0.5, in_specs=P("data"), out_specs=P("data"))(y)
