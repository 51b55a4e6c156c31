"""A collective over `mesh.axis_names` in a `check_vma=False` shard_map body under the spmd vmap (issue 22, kind 5).

`mesh.axis_names` is `('x', 'y')`, so `pmean(b, mesh.axis_names)` runs over the spmd axis `'x'` too: the program
runs and mixes batch elements, wrong values; under a plain vmap it matches (measured on jax 0.10.2:
safety/measurements/axis_names_from_mesh.py). SPMD004, the axes read off the resolved mesh. No free axis to
rename to; add-axis is unsafe (the collective reads the mesh's axis names, which the new axis changes); strip
is never offered for a collective over the spmd axis; dropping `spmd_axis_name` (safe on this Auto mesh) runs and matches.
"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b - jax.lax.pmean(b, mesh.axis_names)


def f(v):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False)(v)


def main():
    a = (np.arange(32, dtype=np.float32).reshape(4, 8) ** 1.4) / 9.0
    return jax.vmap(f)(a), jax.vmap(f)(a)
