"""The shard_map body calls `s.sum(b)`, `s` defaulting to `SUMMER` of pkg/ops.py: a `types.SimpleNamespace`
whose `sum` applies `lax.cond`. No class of the project has an indented `def sum(`, so hazard H2 keyed the call
`Array.sum` (an allowed array method): the rename to 'y' was SAFE and the renamed program raised `pvary is a
invariant->variant collective` (breaker17 h04; a class attribute, an attribute store, a class made by `type`, a namedtuple or a
module of the project did the same, h01-h07). An object imported from the project may have any method: rename
is unsafe, naming the call."""
import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

from pkg.ops import SUMMER

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def body(b, s=SUMMER):
    return s.sum(b)


def layer(v):
    return jax.shard_map(body, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def forward():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(layer, spmd_axis_name='x')(xs)


def reference():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(layer)(xs)
