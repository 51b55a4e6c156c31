"""Issue 22 (silence5): `jax.lax.psum(b, ('y',))` (one axis written as a tuple) under an inner `jax.vmap` between the
spmd vmap ('x') and the shard_map, check_vma on: runs and matches, as `psum(b, 'y')` does
(safety/measurements/spmd007_tuple_collective_axes.py); SPMD007 was given."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
AXES = ('y', 'z')


def body(b):
    return jax.lax.psum(b, ('y',))


g = jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))


def f(v):
    return jax.vmap(g)(v)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(f, spmd_axis_name='x')(xs)
    reference = jax.vmap(jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False))(xs.reshape(32, 8)).reshape(8, 4, 8)
    return result, reference
