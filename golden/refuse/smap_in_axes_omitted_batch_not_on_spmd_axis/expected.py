"""A `jax.smap` over `'y'` with `in_axes` omitted under the spmd vmap over `'x'` (issue 22, kind 7), on an
Explicit mesh installed by `jax.set_mesh`, the batch placed `P(None, 'y')` (not on the spmd axis).

JAX raises `shard_map in_specs argument must refer to an axis marked as manual` eagerly (`manual_axis_type`
under jit; measured on jax 0.10.2: safety/measurements/lax_map_and_smap_infer.py, part 2): SPMD008. smap has
no specs or `axis_names` to edit and rename/add-axis fail there; a plain vmap fails on the Explicit mesh too:
no fix.
"""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def f(v):
    return jax.smap(lambda b: b * 2.0 + 1.0, out_axes=0, axis_name='y')(v)


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 5.0
    with jax.set_mesh(mesh):
        xs = jax.device_put(a, NamedSharding(mesh, P(None, 'y')))
        return jax.vmap(f, spmd_axis_name='x')(xs), a * 2.0 + 1.0
