"""`jax.device_put(v, NamedSharding(mesh, P('x')))` inside a vmap whose spmd axis is `'x'`, on an Auto mesh.

Unlike a jit's `in_shardings`/`out_shardings` naming the spmd axis (SPMD005, `DuplicateSpecError`), this
runs and matches, eager and under jit, any check_vma (measured on jax 0.10.2:
safety/measurements/jit_shardings_spmd_axis.py): no finding.
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@partial(jax.vmap, spmd_axis_name='x')
def f(v):
    v = jax.device_put(v + 1.0, NamedSharding(mesh, P('x')))
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(), out_specs=P())(v)


def main():
    a = np.linspace(-1.0, 2.0, 64, dtype=np.float32).reshape(8, 8)
    return f(a), (a + 1.0) * 2.0
