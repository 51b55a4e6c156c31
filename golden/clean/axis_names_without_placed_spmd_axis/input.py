"""`axis_names={'y'}` on an Explicit mesh under the spmd vmap over `'x'`, the batch placed `P('x', 'y')` on the
spmd axis: runs and matches with check_vma=True (measured on jax 0.10.2:
safety/measurements/open_items_issue22_kind9.py, part B): clean.
"""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def f(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'y'})(v)


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 3.0
    xs = jax.device_put(a, NamedSharding(mesh, P('x', 'y')))
    return jax.vmap(f, spmd_axis_name='x')(xs), a * 2.0 + 1.0
