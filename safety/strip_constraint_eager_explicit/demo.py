"""Original: golden/refuse/eager_constraint_strip_explicit_mesh (a constraint naming the spmd axis on
make_mesh's default Explicit axes, the spmd vmap called eagerly with the batch placed on `'data'`). Applied
anyway: the strip of the constraint to `P(None)`, which runs under `jax.jit` (golden
lift-captures/jit_above_vmap_constraint_explicit_mesh): eagerly, on a mesh with no Auto axis, the stripped
constraint raises on the `P.UNCONSTRAINED` the vmap puts at the batch dimension."""
from functools import partial

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 8), ('data', 'model'))


@partial(jax.vmap, spmd_axis_name='data')
def f(a):
    a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P(None)))
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P())(a)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(jax.device_put(a, NamedSharding(mesh, P('data')))), a * 2.0
