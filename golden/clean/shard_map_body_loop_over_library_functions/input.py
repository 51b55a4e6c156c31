"""A shard_map body held by a loop variable over a tuple of library functions, and over a module-level tuple of
them, under a vmap with `spmd_axis_name='data'` (specs over 'model'): nothing batched to close over, runs and
matches. No finding, no record (a loop over values of a function gives an SPMD910 record:
unfollowed/shard_map_body_loop_variable)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
ACTS = (jnp.tanh, jnp.sin)


def stack(x):
    for f in (jnp.tanh, jnp.sin):
        x = jax.shard_map(f, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)
    for g in ACTS:
        x = jax.shard_map(g, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)
    return x


def main():
    xs = np.linspace(-1.0, 1.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(stack, spmd_axis_name="data")(xs), np.sin(np.tanh(np.sin(np.tanh(xs))))
