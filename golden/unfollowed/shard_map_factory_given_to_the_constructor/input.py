"""A shard_map factory given to the constructor (`Layer(partial(jax.shard_map, ...))`, kept as `self.smap =
smap`) and applied as `self.smap(double)`: the walk read only factories written in the class, so "All checks
passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs` (breaker17 b01). Which
factory an instance holds is not read: an SPMD910 record at the application."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
XS = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)


def double(b):
    return b * 2.0


class Layer:
    def __init__(self, smap):
        self.smap = smap

    def __call__(self, v):
        return self.smap(double)(v)


def main():
    layer = Layer(partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x")))
    return jax.vmap(layer, spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
