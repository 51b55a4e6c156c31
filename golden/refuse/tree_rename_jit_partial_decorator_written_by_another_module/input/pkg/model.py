"""`@JIT_Y` over the vmapped function, `JIT_Y` a `functools.partial(jax.jit, out_shardings=...P('y'))`; another
module of the project (pkg/patch.py) writes `model.JIT_Y`. The evaluator rightly did not trust the name's value
there, but the decorator was then passed over: its out_shardings were not read, 'y' looked free and the rename
onto it was SAFE; the renamed program raised `DuplicateSpecError` (P('y', 'y'); breaker17, on main too). A name
holding a partial whose value is not followed is now an SPMD910 record at the decorator: rename is unsafe."""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
JIT_Y = partial(jax.jit, out_shardings=NamedSharding(MESH, P('y')))


@JIT_Y
def layer(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def forward():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(layer, spmd_axis_name='x')(xs)


def reference():
    return np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0 * 2.0
