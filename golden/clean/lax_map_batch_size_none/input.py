"""`jax.lax.map(block, rows, batch_size=None)` between the spmd vmap and a check_vma=True shard_map: a scan,
no inner vmap; runs and matches (measured on jax 0.10.2: safety/measurements/lax_map_and_smap_infer.py).
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(r):
    return jax.shard_map(lambda b: b * b + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(r)


@partial(jax.vmap, spmd_axis_name='x')
def f(rows):
    return jax.lax.map(block, rows, batch_size=None)


def main():
    a = np.linspace(-1.0, 2.0, 256, dtype=np.float32).reshape(8, 4, 8)
    return f(a), a * a + 1.0
