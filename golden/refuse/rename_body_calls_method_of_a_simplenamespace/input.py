"""The shard_map body calls `s.sum(b)`, `s` defaulting to `SUMMER = types.SimpleNamespace(sum=_cond)`, whose
`sum` applies `lax.cond`. No class binds `sum`, so hazard H2 keyed the call `Array.sum` (an allowed array
method): the rename to 'y' was SAFE and the renamed program raised `pvary is a invariant->variant collective`
(breaker17 h12). An object a library other than jax or numpy makes may have any method: rename is unsafe,
naming the call."""
import types

import jax
import numpy as np
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


SUMMER = types.SimpleNamespace(sum=_cond)


def body(b, s=SUMMER):
    return s.sum(b)


def layer(v):
    return jax.shard_map(body, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    return jax.vmap(layer, spmd_axis_name='x')(xs), jax.vmap(layer)(xs)
