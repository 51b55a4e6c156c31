"""Layers written for the context mesh: no `mesh=` argument, the mesh comes from `jax.set_mesh`."""
import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P


def rmsnorm(x):
    def body(b):
        return b * jax.lax.rsqrt(jnp.mean(b * b, axis=-1, keepdims=True) + 1e-6)
    return jax.shard_map(body, in_specs=P("dp", None), out_specs=P("dp", None))(x)


@jax.shard_map(in_specs=P("dp"), out_specs=P("dp"))
def scale(b):
    return b * 3.0
