"""Original: golden/refuse/eager_unplaced_batch_explicit_mesh (the spmd vmap called eagerly on make_mesh's
default Explicit axes, its batch unplaced; a constraint naming the spmd axis and a closure over the batched `s`).
Applied anyway: the strip of the constraint and the lift of the capture, the fixes that run under `@jax.jit`
above the vmap (golden lift-captures/jit_above_vmap_constraint_explicit_mesh): eagerly the unplaced batch
still fails the shard_map's in_specs, which the spmd vmap extends with `'data'`."""
from functools import partial

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 8), ('data', 'model'))


@partial(jax.vmap, spmd_axis_name='data')
def f(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P(None)))
    s = a.mean()
    return jax.shard_map(lambda b, s: b * s, mesh=mesh, in_specs=(P(), P()), out_specs=P())(a, s)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
