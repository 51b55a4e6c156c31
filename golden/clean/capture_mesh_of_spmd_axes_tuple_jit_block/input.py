"""A shard_map body closing over `m`, computed from the batch, under all-replicated specs, on the Explicit mesh
`make_mesh((2, 4), ('x', 'y'))` under the spmd tuple ('x', 'y') (every mesh axis an spmd axis), the batch
placed on both axes, the shard_map applied in a `@jax.jit` function and the vmap called eagerly: the capture
runs and matches, check_vma on or off (no SPMD003; safety/measurements/capture_mesh_of_spmd_axes.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x):
    m = x.mean() + 2.0

    def body(b):
        return (b * 2.0 + 1.0) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def apply(x):
    return block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(('x', 'y'), None)))
    result = jax.vmap(apply, spmd_axis_name=('x', 'y'))(xs)
    return result, (xs0 * 2.0 + 1.0) * (xs0.mean(axis=1, keepdims=True) + 2.0)
