"""A vmap factory returned by a function of the module and applied to what the call gives: `make_batcher()
(layer)`. The analysis follows a factory applied or bound to a name, not one coming out of a call. Before,
"All checks passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs`; now an
SPMD910 record at the factory's `spmd_axis_name`, naming the function and the line that uses it."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def double(b):
    return b * 2.0


layer = jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))


def make_batcher(axis):
    return partial(jax.vmap, spmd_axis_name=axis)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = make_batcher('x')(layer)(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
