import functools

import jax
from jax.sharding import AxisType

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def sharded(spec):
    """A decorator factory: a shard_map over MESH with one spec in and out."""
    return functools.partial(jax.shard_map, mesh=MESH, in_specs=spec, out_specs=spec)
