"""The shard_map body calls `self.ops.sum(b)`, `self.ops` holding the module pkg/red.py, whose top-level
`sum` applies `lax.cond`. Hazard H2 keyed the call `Array.sum` (no class has an indented `def sum(`): the
rename to 'y' was SAFE and the renamed program raised `pvary is a invariant->variant collective` (breaker17
h09). A value the class gives `self.ops` that is a module of the project may have any function: rename is
unsafe, naming the call."""
import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

from pkg import red

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


class Layer:
    def __init__(self):
        self.ops = red

    def __call__(self, v):
        return jax.shard_map(lambda b: self.ops.sum(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def forward():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(Layer(), spmd_axis_name='x')(xs)


def reference():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(Layer())(xs)
