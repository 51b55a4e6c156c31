"""`@jax.jit` stacked above the spmd-vmap decorator (issue 23, kind 4; found by the fuzzer), on an Auto mesh.

The jit is applied after the vmap, so it wraps it as `jax.jit(jax.vmap(f))` does: the body's closure over
`s = a.mean()` is a batched value as it is eagerly, and fails the same way (measured on jax 0.10.2,
safety/measurements/capture_jit_above_vmap.py). The constraint naming the spmd axis `'data'` fails first.
Renaming the spmd axis to the free `'model'` alone leaves the capture failing (`ManualAxisType`); auto renames
and lifts `s` into an operand with `P()`, and the program runs.
"""
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
    return jax.shard_map(lambda b, s: b * s, mesh=mesh, in_specs=(P(), P()), out_specs=P())(a, s)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
