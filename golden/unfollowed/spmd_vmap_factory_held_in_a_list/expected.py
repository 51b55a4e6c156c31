"""A vmap factory held in a list display and applied through a subscript: the analysis follows a factory
applied, bound to a name or held by `self`, not one read back out of a container. Before, "All checks
passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs`; now an SPMD910 record at
the factory's `spmd_axis_name`."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def double(b):
    return b * 2.0


layer = jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
BATCHERS = [partial(jax.vmap, spmd_axis_name='x'), jax.vmap]


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = BATCHERS[0](layer)(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
