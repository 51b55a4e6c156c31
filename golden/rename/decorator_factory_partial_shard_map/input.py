import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)


def sharded(spec):
    """A decorator factory: a shard_map over `mesh` with one spec in and out."""
    return functools.partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


@sharded(P('x'))
def double(b):
    return b * 2.0


@sharded(P(None, 'y'))
def shift(b):
    return b + 1.0


def step(v):
    return shift(double(v))


def main():
    xs = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    result = jax.vmap(step, spmd_axis_name='x')(xs)
    return result, np.asarray(xs) * 2.0 + 1.0
