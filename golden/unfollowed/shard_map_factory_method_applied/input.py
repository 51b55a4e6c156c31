"""A method returning a shard_map factory, applied as `self.make(P("x"))(double)`: only a function of the
module was read (`make(P("x"))(double)`), so "All checks passed!" while JAX raised `vmap spmd_axis_name cannot
appear in shard_map in_specs` (breaker17 a17). The method's parameters are not bound here: an SPMD910 record at
the application."""
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
    def make(self, spec):
        return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)

    def __call__(self, v):
        return self.make(P("x"))(double)(v)


def main():
    return jax.vmap(Layer(), spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
