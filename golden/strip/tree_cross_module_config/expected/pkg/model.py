import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from .config import DATA, MESH, MODEL


def _gelu_scale(a):
    return jnp.tanh(a) * 0.5 + a


def forward(x):
    return jax.shard_map(_gelu_scale, mesh=MESH, in_specs=P(None, MODEL), out_specs=P(None, MODEL))(x)
