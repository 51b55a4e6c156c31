"""Issue 22 (silence5): `jax.lax.psum(b, ('x', 'y'))` over the spmd axis 'x' and another, in a shard_map body split on
'z' only, under `jax.vmap(f, spmd_axis_name='x')` with check_vma on: JAX raises the `pvary` error (under `P('y')`
the psum error `jax.lax.psum can only accept axis_name ...`, which SPMD004's message names too;
safety/measurements/spmd007_tuple_collective_axes.py). add-axis moves the batch to a new size-1 axis: runs and
matches the plain vmap."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 2, 2), ('batch', 'x', 'y', 'z'))


def body(b):
    return jax.lax.psum(b, ('x', 'y'))


g = jax.shard_map(body, mesh=mesh, in_specs=P('z'), out_specs=P('z'))


def main():
    xs = (np.arange(8 * 8, dtype=np.float32).reshape(8, 8) + 3.0) / 80.0
    return jax.vmap(g, spmd_axis_name='batch')(xs), jax.vmap(g)(xs)
