"""`JIT` bound to one of two jit partials under a condition, applied as `jax.vmap(JIT(layer), ...)`: a name
bound more than once was not followed, so "All checks passed!" while JAX raised `vmap spmd_axis_name cannot
appear in shard_map in_specs` (breaker17 j07). Which partial is applied is not read: an SPMD910 record."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
XS = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)


def double(b):
    return b * 2.0

if len(jax.devices()) > 100:
    JIT = partial(jax.jit)
else:
    JIT = partial(jax.jit, out_shardings=NamedSharding(mesh, P("y")))


def layer(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P("x"), out_specs=P("x"))(v)


def main():
    return jax.vmap(JIT(layer), spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
