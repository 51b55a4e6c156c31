"""A shard_map factory held by the class through `staticmethod(partial(jax.shard_map, ...))`, applied as
`self.smap(double)`: the walk did not see the factory inside `staticmethod(...)`, so "All checks passed!" while
JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs` (breaker17 a12). Now `staticmethod`'s
argument is read as the factory, and "x" is renamed to the free "y"."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
XS = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)


def double(b):
    return b * 2.0


class Layer:
    smap = staticmethod(partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x")))

    def __call__(self, v):
        return self.smap(double)(v)


def main():
    return jax.vmap(Layer(), spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
