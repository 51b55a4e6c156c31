"""A shard_map factory made by a lambda (`make = lambda spec: partial(jax.shard_map, ..., in_specs=spec, ...)`)
and applied as `make(P("x"))(double)`: the factory is read, but a lambda's parameters are not bound to the
call's arguments, so the specs are not known: an SPMD910 record (silent before: "All checks passed!" while
JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs`)."""
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


make = lambda spec: partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


def main():
    return jax.vmap(make(P("x"))(double), spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
