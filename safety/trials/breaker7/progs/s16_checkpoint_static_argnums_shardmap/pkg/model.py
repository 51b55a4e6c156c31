import functools

import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


@functools.partial(jax.checkpoint, static_argnums=(1,))
def act(x, kind):
    fn = jnp.tanh if kind == "tanh" else jax.nn.relu
    return jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)


def loss(x):
    return jnp.sum(act(x, "tanh") ** 2)
