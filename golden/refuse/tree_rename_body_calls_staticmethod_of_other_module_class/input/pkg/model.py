"""The shard_map body calls `Ops.f(b)`, a staticmethod of a class of pkg/ops.py applying `lax.cond`. The call
walk took `pkg.ops.Ops.f` for the class `Ops` (a construction of it, running no code of the project) and never
read `f`: the rename to 'y' was SAFE and the renamed program raised `pvary is a invariant->variant collective`
(breaker16 x10). A member of a class of another module is now looked up in that class and read there: its
`lax.cond` leaves its collectives unread, and rename is unsafe."""
import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

from pkg.ops import Ops

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def layer(v):
    return jax.shard_map(lambda b: Ops.f(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def forward():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(layer, spmd_axis_name='x')(xs)


def reference():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(layer)(xs)
