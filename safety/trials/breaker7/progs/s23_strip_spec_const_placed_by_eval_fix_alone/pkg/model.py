import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, MESH

ROWS = P(DATA, None)


def block(x):
    return jax.shard_map(lambda b: b - jnp.float32(0.5), mesh=MESH, in_specs=ROWS, out_specs=ROWS)(x)


def row_sums(x):
    return jax.shard_map(lambda b: jnp.sum(b, axis=1, keepdims=True), mesh=MESH, in_specs=ROWS,
                         out_specs=ROWS)(x)
