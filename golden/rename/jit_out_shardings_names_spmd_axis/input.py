"""A `jax.jit` inside the vmapped function whose `out_shardings` names the spmd axis itself (issue 22, T1).

JAX prepends the spmd axis to the jit's sharding and raises `DuplicateSpecError` (`P('x', 'x')`), eager and
under jit, any check_vma (measured on jax 0.10.2: safety/measurements/jit_shardings_spmd_axis.py): SPMD005,
next to the shard_map's SPMD001/SPMD002. Rename moves the spmd axis to `'y'`: the jit's `P('x')` then names a
data axis and the program runs; a strip of the shard_map's specs alone would leave the jit failing (unsafe).
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@partial(jax.vmap, spmd_axis_name='x')
def f(v):
    v = jax.jit(lambda u: u + 1.0, out_shardings=NamedSharding(mesh, P('x')))(v)
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), (a + 1.0) * 2.0
