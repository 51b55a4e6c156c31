"""`axis_names={'x', 'y'}` naming the spmd axis `'x'` on an Explicit mesh, the batch placed on it by
`jax.sharding.reshard(a, P('x', 'y'))` under `with jax.set_mesh(mesh):` (fuzz seeds 40164, 40368, 70107).

The reshard places the batch as `jax.device_put(a, NamedSharding(mesh, P('x', 'y')))` does
(golden refuse/axis_names_names_placed_spmd_axis): JAX raises `jax.shard_map requires axis_names=... to be a
subset of mesh.axis_names`: SPMD008. No fix is measured for it: nothing applied.
"""
import jax
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def f(v):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(v)


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 3.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(a, P('x', 'y'))
        result = jax.vmap(f, spmd_axis_name='x')(xs)
    return result, a * 2.0 + 1.0
