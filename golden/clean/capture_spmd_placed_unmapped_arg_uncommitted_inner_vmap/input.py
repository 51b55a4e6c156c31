"""refuse/capture_spmd_placed_unmapped_arg_committed_inner_vmap_passed_whole with `w` not placed (a plain
`np.float32`): the capture through the inner `jax.vmap(block, in_axes=(0, None))` runs and matches, eager and under
jit, check_vma True (measured on jax 0.10.2: safety/measurements/unmapped_committed_inner_vmap.py). No finding."""
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
    result = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')(xs, W)
    return result, (X * 2 + 1) * W
