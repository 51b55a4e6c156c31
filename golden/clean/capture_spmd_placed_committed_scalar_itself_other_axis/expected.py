"""A shard_map body closing over `w` itself, a 0-d argument the spmd vmap does not map (`in_axes=(0, None)`),
committed to the Explicit mesh (`P()`), with the batch placed on the spmd axis `'x'` (`P('x', 'y')`), in_specs
`P('y')` naming an axis besides the spmd one and check_vma on, a `@jax.jit` on the way: runs and matches, eager
and under jit (measured on jax 0.10.2: safety/measurements/capture_spmd_placed_committed_other_axis.py; fuzz
seed 370317), so no SPMD003."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    W = np.float32(1.5)
    xs = jax.device_put(X, NamedSharding(mesh, P('x', 'y')))
    ws = jax.device_put(W, NamedSharding(mesh, P()))
    result = jax.vmap(block, in_axes=(0, None), spmd_axis_name='x')(xs, ws)
    return result, (X * 2 + 1) * W
