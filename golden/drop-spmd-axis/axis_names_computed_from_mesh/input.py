"""`axis_names=frozenset(mesh.axis_names) - {'x'}` under the spmd vmap over `'x'` (issue 22, kind 5).

The computed set is `{'y'}`: the spmd axis is not manual, and JAX raises `shard_map in_specs argument must
refer to an axis marked as manual` eagerly (`manual_axis_type` under jit; measured on jax 0.10.2:
safety/measurements/axis_names_from_mesh.py): SPMD008. The set is computed, so rename and add-axis have no
display to append to (refused); dropping `spmd_axis_name` (safe on this Auto mesh) runs and matches.
"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def f(v):
    sm = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                       axis_names=frozenset(mesh.axis_names) - {'x'})
    return sm(v)


def main():
    a = (np.arange(32, dtype=np.float32).reshape(4, 8) ** 1.4) / 9.0
    return jax.vmap(f, spmd_axis_name='x')(a), a * 2.0 + 1.0
