"""A shard_map factory in a class body read through the class's name (`Layer.smap(double)`) in the vmapped
function. Silent before ("All checks passed!" while JAX raised `vmap spmd_axis_name cannot appear in
shard_map in_specs`); now read, and "x" renamed to the free "y". (A module statement storing `Layer.smap`
again makes it an SPMD910 record.)"""
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


class Layer:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))


def f(v):
    return Layer.smap(double)(v)


def main():
    return jax.vmap(f, spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
