"""An eager call of the spmd vmap on `jax.make_mesh`'s default Explicit axes, its batch unplaced (issue 22, T2).

The same program as golden lift-captures/jit_above_vmap_constraint_explicit_mesh without `@jax.jit` above
the vmap. There stripping the constraint and lifting the capture runs; called eagerly, the fixed program
still fails: under the spmd vmap the shard_map's operand must arrive placed on `'data'`, and an unplaced batch
raises `in_specs passed to shard_map: P('data',) does not match the specs of the input` (measured on jax
0.10.2: safety/measurements/eager_explicit_fixes.py). So every fix that keeps the spmd axis is unsafe, its
reason naming the eager call at line 28 and the placement it lacks; nothing is applied.
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 8), ('data', 'model'))


@partial(jax.vmap, spmd_axis_name='data')
def f(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P('data')))
    s = a.mean()
    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P())(a)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
