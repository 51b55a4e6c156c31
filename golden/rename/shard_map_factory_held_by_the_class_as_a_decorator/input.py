"""A shard_map factory in a class body (`smap = partial(jax.shard_map, mesh=mesh, in_specs=P("x"), ...)`)
applied as the decorator `@Layer.smap`: the walk read a factory held by the class only when called
(`Layer.smap(double)`), so "All checks passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map
in_specs` (breaker17 a07). Now the decorated `def` is read as the shard_map, and "x" is renamed to the free "y"."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))
XS = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)


class Layer:
    smap = partial(jax.shard_map, mesh=mesh, in_specs=P("x"), out_specs=P("x"))


@Layer.smap
def block(b):
    return b * 2.0


def main():
    return jax.vmap(block, spmd_axis_name="x")(XS), np.asarray(XS) * 2.0
