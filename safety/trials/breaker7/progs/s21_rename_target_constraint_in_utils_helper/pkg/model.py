import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import MESH
from pkg.utils import shard_hidden


def block(x):
    h = jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)
    return shard_hidden(h + 1.0)
