from functools import partial

import jax
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH


@partial(jax.jit, static_argnames='axis')
def block(x, axis=DATA):
    return jax.shard_map(lambda v: v + 1.0, mesh=MESH, in_specs=P(axis, None), out_specs=P(axis, None))(x)
