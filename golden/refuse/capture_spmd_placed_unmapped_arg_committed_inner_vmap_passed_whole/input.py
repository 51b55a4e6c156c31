"""refuse/capture_spmd_placed_unmapped_arg_committed_direct with an inner `jax.vmap(block, in_axes=(0, None))(x, w)`
between the vmapped function and the function defining the shard_map body: the batch placed on the spmd axis
`'x'` of an Explicit mesh, the body closing over `w`, an argument neither vmap maps, committed to the mesh
(`P()`). JAX fails, `For primitive mul, context mesh ... should match the aval mesh`, eager and under jit
(measured on jax 0.10.2: safety/measurements/unmapped_committed_inner_vmap.py; fuzz seed 460044, silent before).
SPMD003; nothing applied (lifting is unsafe)."""
import jax
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P(), out_specs=P())(x)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, None))(x, w)


def main():
    X = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    W = np.float32(1.5)
    xs = jax.device_put(X, NamedSharding(mesh, P('x', None, None)))
    ws = jax.device_put(W, NamedSharding(mesh, P()))
    result = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')(xs, ws)
    return result, (X * 2 + 1) * W
