"""The shard_map body is `partial(body, s=SUMMER)`, `SUMMER = types.SimpleNamespace(sum=_cond)` whose `sum`
applies `lax.cond`, and `body` calls `s.sum(b)`. The parameter `s` has no default and no call of `body` passes
it, so hazard H2 keyed the call `Array.sum` (an allowed array method): the rename to 'y' was SAFE and the
renamed program raised `pvary is a invariant->variant collective` (breaker17 c01). What a `functools.partial`
of the function binds is read as what a call passes: rename is unsafe, naming the call."""
import types
from functools import partial

import jax
import numpy as np
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


SUMMER = types.SimpleNamespace(sum=_cond)


def body(b, s):
    return s.sum(b)


def layer(v):
    return jax.shard_map(partial(body, s=SUMMER), mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(layer, spmd_axis_name='x')(xs), jax.vmap(layer)(xs)
