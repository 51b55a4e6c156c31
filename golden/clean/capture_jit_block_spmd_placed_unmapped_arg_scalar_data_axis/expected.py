"""A staged capture (`@jax.jit` on the function applying the shard_map) on an Explicit mesh with the batch placed
on the spmd axis `'x'` (`P('x', 'y')`), closing over `s = w.sum()`, `w` an argument the vmap does not map,
committed to the mesh (`P()`), with in_specs `P('y')` naming an axis besides the spmd one and check_vma on: runs
and matches, eager and under jit (measured on jax 0.10.2:
safety/measurements/capture_staged_spmd_placed_unbatched_arg.py), so no SPMD003."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    s = w.sum()
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * s, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def apply(x, w):
    return block(x, w)


def main():
    X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(X, NamedSharding(mesh, P('x', 'y')))
    ws = jax.device_put(W, NamedSharding(mesh, P()))
    result = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')(xs, ws)
    return result, (X * 2 + 1) * W.sum()
