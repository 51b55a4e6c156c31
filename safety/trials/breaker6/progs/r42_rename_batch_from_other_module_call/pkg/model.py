import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import mesh


def block(x):
    return jax.shard_map(lambda b: jnp.tanh(b) * 2.0, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def forward(x):
    return jax.vmap(block, spmd_axis_name="data")(x)


def warmup():
    return forward(jnp.zeros((4, 8)))
