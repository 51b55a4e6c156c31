"""Original: golden/lift-captures/jit_above_vmap_constraint_explicit_mesh (`@jax.jit` above the spmd-vmap
decorator on make_mesh's default Explicit axes, a constraint naming the spmd axis and a closure over the batched
`s`). Applied anyway: strip of the constraint alone (what auto chose before the capture under the outer jit was
seen): the constraint is fine, the capture still fails."""
from functools import partial

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 8), ('data', 'model'))


@jax.jit
@partial(jax.vmap, spmd_axis_name='data')
def f(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P(None)))
    s = a.mean()
    return jax.shard_map(lambda b: b * s, mesh=mesh, in_specs=P(), out_specs=P())(a)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), a * a.mean(axis=1, keepdims=True)
