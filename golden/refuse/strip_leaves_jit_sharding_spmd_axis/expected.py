"""Strip asked for while a `jax.jit` inside the vmapped function names the spmd axis in `in_shardings` (issue 22, T1).

Stripping `'x'` from the shard_map's specs cures SPMD001/SPMD002 but leaves the jit's `P('x')`, which JAX
extends to `P('x', 'x')` under the spmd vmap and rejects (`DuplicateSpecError`, measured on jax 0.10.2:
safety/measurements/jit_shardings_spmd_axis.py). The strip is unsafe, its reason naming the jit; the jit's
shardings are not stripped (not a measured transform): nothing is applied.
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@partial(jax.vmap, spmd_axis_name='x')
def f(v):
    v = jax.jit(lambda u: u + 1.0, in_shardings=NamedSharding(mesh, P('x')))(v)
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), (a + 1.0) * 2.0
