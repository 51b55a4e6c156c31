"""Issue 22 (silence5): `jax.lax.psum(b, ('y', 'z'))` with the block split on both axes (`P(('y', 'z'))`) under an
inner `jax.vmap` between the spmd vmap ('x') and the shard_map, check_vma on: runs and matches
(safety/measurements/spmd007_tuple_collective_axes.py, part 2: a psum over several axes fails only when the
operand's varying state differs between them, with or without a vmap); SPMD007 was given."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))
AXES = ('y', 'z')


def body(b):
    return jax.lax.psum(b, ('y', 'z'))


g = jax.shard_map(body, mesh=mesh, in_specs=P(('y', 'z')), out_specs=P(('y', 'z')))


def f(v):
    return jax.vmap(g)(v)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(f, spmd_axis_name='x')(xs)
    reference = jax.vmap(jax.shard_map(body, mesh=mesh, in_specs=P(('y', 'z')), out_specs=P(('y', 'z')), check_vma=False))(xs.reshape(32, 8)).reshape(8, 4, 8)
    return result, reference
