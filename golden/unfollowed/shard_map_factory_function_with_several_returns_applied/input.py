"""`make(ax)` returns one of two shard_map factories (`if ax == "x": return partial(..., P("x"), ...)` /
`return partial(..., P("y"), ...)`), applied as `make("y")(double)`: only a function with one `return` was
read, so "All checks passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs`
(breaker17 a15). Which factory the call gets is not read: an SPMD910 record at the application."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
XS = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)


def double(b):
    return b * 2.0


def make(ax):
    if ax == "x":
        return partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))
    return partial(jax.shard_map, mesh=mesh, in_specs=P("y"), out_specs=P("y"))


def block(v):
    return make("y")(double)(v)


def main():
    return jax.vmap(block, spmd_axis_name="y")(XS), np.asarray(XS) * 2.0
