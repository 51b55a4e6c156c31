import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import RUN


def block(x):
    return jax.shard_map(lambda b: jnp.exp(-b * b), mesh=RUN.mesh, in_specs=P("data"), out_specs=P("data"))(x)
