"""`JIT = partial(jax.jit, out_shardings=None)` applied as `JIT(layer, out_shardings=NamedSharding(MESH,
P('y')))` on the vmap's way: the application's keywords override the partial's. Only the partial's were read,
so 'y' looked free and the rename onto it was SAFE; the renamed program raised `DuplicateSpecError` (P('y',
'y'); breaker17 j06). The application's shardings are read too: rename skips 'y' and is not offered."""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
JIT = partial(jax.jit, out_shardings=None)


def layer(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8) / 10.0
    f = JIT(layer, out_shardings=NamedSharding(MESH, P('y')))
    return jax.vmap(f, spmd_axis_name='x')(xs), np.asarray(xs) * 2.0
