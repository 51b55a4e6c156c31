"""A with_sharding_constraint stripped on a mesh with no Auto axis, called eagerly with the batch placed (issue 22, T2).

The batch is placed on the spmd axis `'data'` of `jax.make_mesh`'s default Explicit axes, so the shard_map's
operand matches; but the constraint naming `'data'` fails (Explicit axes in a `with_sharding_constraint`
spec), and stripped to `P(None)` it still fails eagerly: `P(UNCONSTRAINED, None) cannot contain
P.UNCONSTRAINED when no mesh axis_types are Auto` (measured on jax 0.10.2:
safety/measurements/eager_explicit_fixes.py; under `jax.jit` the stripped form runs). The strip is unsafe,
nothing is applied.
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 8), ('data', 'model'))


@partial(jax.vmap, spmd_axis_name='data')
def f(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P('data')))
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P())(a)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(jax.device_put(a, NamedSharding(mesh, P('data')))), a * 2.0
