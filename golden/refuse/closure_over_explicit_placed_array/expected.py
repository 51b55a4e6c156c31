"""A shard_map body closing over `w = jax.device_put(ws, NamedSharding(mesh, P(None)))` on an Explicit mesh,
under the spmd vmap over `'x'` with the batch placed `P('x', 'y')` (issue 22, kind 9).

JAX refuses closures over arrays placed on Explicit axes, whatever the spec: `For primitive broadcast_in_dim,
context mesh ...` under the spmd vmap, `NotImplementedError: Closing over inputs to shard_map ...` under a
plain vmap and without one (measured on jax 0.10.2: safety/measurements/open_items_issue22_kind9.py, part A):
SPMD003. Lifting `w` is not measured for a placed array, and a plain vmap fails too: nothing applied.
"""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def main():
    a = (np.arange(4 * 8 * 4, dtype=np.float32).reshape(4, 8, 4) - 40.0) / 30.0
    ws = np.array([0.5, 1.0, 1.5, 2.0], dtype=np.float32)
    w = jax.device_put(ws, NamedSharding(mesh, P(None)))
    sm = jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))
    xs = jax.device_put(a, NamedSharding(mesh, P('x', 'y')))
    return jax.vmap(sm, spmd_axis_name='x')(xs), a * ws
