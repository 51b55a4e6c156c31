"""A shard_map factory in a class body (`smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), ...)`) applied
as `self.smap(double)` in `__call__`, which binds its own `AX`: the factory reads the module's `AX = "x"`. The
walk did not read a factory held by the class: "All checks passed!" while JAX raised `vmap spmd_axis_name
cannot appear in shard_map in_specs`. Now the site is read, its arguments in the class body's scope, and "x"
is renamed to the free "y"."""
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
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P(AX), out_specs=P(AX))

    def __call__(self, v):
        AX = "y"
        return self.smap(double)(v)


def main():
    return jax.vmap(Layer(), spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
