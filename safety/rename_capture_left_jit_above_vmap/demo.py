"""Original: golden/lift-captures/jit_above_vmap_constraint_auto_mesh (`@jax.jit` above the spmd-vmap decorator, a
constraint naming the spmd axis and a closure over the batched `s`). Applied anyway: rename alone (what auto chose
before the capture under the outer jit was seen): the constraint is fine, the capture still fails."""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 8), ('data', 'model'), axis_types=(AxisType.Auto, AxisType.Auto))


@jax.jit
@partial(jax.vmap, spmd_axis_name='model')
def f(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P('data')))
    s = a.mean()
    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P())(a)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
