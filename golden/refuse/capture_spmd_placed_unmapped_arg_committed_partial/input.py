"""refuse/capture_spmd_placed_unmapped_arg_committed_direct with `w` bound to the body by `functools.partial`
instead of closed over (fuzz seed 390348): on an Explicit mesh with the batch placed on the spmd axis `'x'`, the
body gets `w`, an argument the vmap does not map, committed to the mesh (`P()`), as a partial keyword. JAX fails
as for the closure, `For primitive mul, context mesh ... should match the aval mesh`, eager and under jit (the
runtime oracle runs it). SPMD003; nothing applied."""
import functools

import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b, w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(functools.partial(body, w=w), mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    X = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    W = np.float32(1.5)
    xs = jax.device_put(X, NamedSharding(mesh, P('x', None)))
    ws = jax.device_put(W, NamedSharding(mesh, P()))
    result = jax.vmap(block, in_axes=(0, None), spmd_axis_name='x')(xs, ws)
    return result, (X * 2 + 1) * W
