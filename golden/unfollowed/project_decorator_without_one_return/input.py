"""A decorator of the project with two `return`s (the shard_map'd function or the function itself, on a
module flag): spmdfix does not read which one runs, so an SPMD910 record at the decorator, never silence. With
the flag on, JAX raises SPMD001's error."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))
SHARDED = True


def maybe_sharded(fn):
    if SHARDED:
        return jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data"))
    return fn


@maybe_sharded
def softplus(x):
    return jnp.logaddexp(x, 0.0)


def main():
    xs = np.linspace(-2.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(softplus, spmd_axis_name="data")(xs), np.logaddexp(xs, 0.0)
