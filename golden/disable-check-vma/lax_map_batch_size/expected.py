"""`jax.lax.map(block, rows, batch_size=2)` between the spmd vmap and a check_vma=True shard_map (issue 22, kind 7).

With a `batch_size` lax.map vmaps its function over chunks, so it is an inner vmap on the way (hazard H2):
JAX raises `shard_map ... was given out_specs which require replication which can't be statically inferred`
(measured on jax 0.10.2: safety/measurements/lax_map_and_smap_infer.py). SPMD007, whose message names that
error; disable-check-vma (unsafe, as always) runs and matches.
"""
from functools import partial

import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(r):
    return jax.shard_map(lambda b: b * b + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(r)


@partial(jax.vmap, spmd_axis_name='x')
def f(rows):
    return jax.lax.map(block, rows, batch_size=2)


def main():
    a = np.linspace(-1.0, 2.0, 256, dtype=np.float32).reshape(8, 4, 8)
    return f(a), a * a + 1.0
