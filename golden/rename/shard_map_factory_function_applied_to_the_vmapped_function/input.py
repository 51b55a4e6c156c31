"""`def make(spec): return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)` applied as
`make(P("x"))(double)` to make the vmapped function. Only the decorator spelling `@make(P("x"))` was read: the
call spelling was "All checks passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map
in_specs`. Now the factory's return is read with `spec` bound to the call's argument, and "x" is renamed to
the free "y"."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
XS = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)


def double(b):
    return b * 2.0
AX = "x"


def make(spec):
    return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


def main():
    return jax.vmap(make(P("x"))(double), spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
