"""refuse/capture_spmd_placed_unmapped_arg_committed_inner_vmap_passed_whole where the inner vmap maps `w`
(`jax.vmap(block, in_axes=(0, 0))(x, w)`, w of shape (8,)): the body closes over one element of `w`, an argument
the spmd vmap does not map, committed to the Explicit mesh (`P()`) while the batch is placed on the spmd axis
`'x'`. JAX fails the same, `For primitive mul, context mesh ... should match the aval mesh`, eager and under jit
(measured on jax 0.10.2: safety/measurements/unmapped_committed_inner_vmap.py). SPMD003 (the inner vmap batches
the value); lift-captures passes it to the shard_map as an operand: it runs and matches."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    return jax.shard_map(lambda b, w: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=(P(), P()), out_specs=P())(x, w)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, 0))(x, w)


def main():
    X = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    W = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(X, NamedSharding(mesh, P('x', None, None)))
    ws = jax.device_put(W, NamedSharding(mesh, P()))
    result = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')(xs, ws)
    return result, (X * 2 + 1) * W[None, :, None]
