import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, MESH


def _layer(h, scale):
    return jax.shard_map(lambda b: jnp.tanh(b * scale), mesh=MESH, in_specs=P(DATA), out_specs=P(DATA))(h), None


def forward(x, scales):
    h, _ = jax.lax.scan(_layer, x, scales)
    return h
