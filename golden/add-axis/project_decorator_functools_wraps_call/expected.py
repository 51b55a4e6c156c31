"""breaker6 r36: a project decorator returning `functools.wraps(fn)(jax.shard_map(fn, ...))` (the shard_map'd
function itself, fn's name and docstring copied onto it), over a function vmapped with `spmd_axis_name='data'`,
which the specs name: JAX raises SPMD001's error. `functools.wraps(fn)(g)` returns `g`: the walk follows `g` (the
return was dropped without a record before, and a decorator factory of another module doing the same, breaker6
r02, was silent too). `functools.update_wrapper(g, fn)` is read the same way."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ("batch", "data", "model"))


def row_sharded(fn):
    return functools.wraps(fn)(jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data")))


@row_sharded
def softsign(x):
    return x / (1.0 + jnp.abs(x))


def main():
    xs = np.linspace(-3.0, 3.0, 32, dtype=np.float32).reshape(4, 8)
    return jax.vmap(softsign, spmd_axis_name="batch")(xs), xs / (1.0 + np.abs(xs))
