import functools

import jax
from jax.sharding import AxisType, PartitionSpec as P

from pkg import ops

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def apply(v, s):
    return jax.shard_map(functools.partial(ops.body, s=s), mesh=MESH, in_specs=P(None), out_specs=P(None))(v)


def forward(xs, ss):
    return jax.vmap(apply, spmd_axis_name='x')(xs, ss)
