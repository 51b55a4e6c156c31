"""The body spelling of rename/shard_map_factory_function_applied_to_the_vmapped_function:
`make(P("x"))(double)(v)` inside the vmapped function. Silent before; now read, "x" renamed to "y"."""
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


def f(v):
    return make(P("x"))(double)(v)


def main():
    return jax.vmap(f, spmd_axis_name="y")(XS), np.asarray(XS) * 2.0
