"""The shard_map body calls `run(Summer(), b)`, and `run` calls `s.sum(b)` on its parameter: `Summer` is a class
of pkg/ops.py whose `sum` applies `lax.cond`. Hazard H2 looked for classes defining `sum` in this module only
and keyed the call `Array.sum` (an allowed array method): add-axis was SAFE and the fixed program
raised `pvary is a invariant->variant collective` (breaker16 x03). A method a class of the project defines, on
an object the walk does not resolve, is on no allowlist: add-axis is unsafe, naming the call."""
import jax
from jax.sharding import AxisType, PartitionSpec as P

from pkg.ops import Summer

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def run(s, b):
    return s.sum(b)


def layer(v):
    return jax.shard_map(lambda b: run(Summer(), b), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def forward(xs):
    return jax.vmap(layer, spmd_axis_name='x')(xs)


def reference(xs):
    return jax.vmap(layer)(xs)
