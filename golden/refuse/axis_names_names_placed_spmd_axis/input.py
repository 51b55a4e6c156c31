"""`axis_names={'x', 'y'}` naming the spmd axis `'x'` on an Explicit mesh, the batch placed `P('x', 'y')` on it
(issue 22, kind 9).

The vmap takes the placed spmd axis out of the shard_map's mesh: JAX raises `jax.shard_map requires
axis_names=frozenset({'x', 'y'}) to be a subset of mesh.axis_names=frozenset({'y'})`, eager and under jit
(measured on jax 0.10.2: safety/measurements/open_items_issue22_kind9.py, part B): SPMD008, whose message says
to leave `'x'` out. No fix is measured for it: nothing applied.
"""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def f(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(v)


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 3.0
    xs = jax.device_put(a, NamedSharding(mesh, P('x', 'y')))
    return jax.vmap(f, spmd_axis_name='x')(xs), a * 2.0 + 1.0
