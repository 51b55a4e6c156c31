"""An inner `jax.vmap` between the spmd vmap (`'x'`) and check_vma=True shard_maps whose bodies multiply their
block by a constant bound inside a function, not at module level: `M` made with numpy in the function applying
the shard_map, `K` made with jax.numpy in the body itself, and `jnp.eye(8, dtype=b.dtype)` written inline. Each
runs and matches, eager and under jit, as a module-level constant does (measured on jax 0.10.2:
safety/measurements/spmd007_gather_permute_index_local_constants.py), so no SPMD007."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def scaled(b):
    K = jnp.ones((8, 8), dtype=jnp.float32) * 0.25
    return b @ K


def block(row):
    M = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(8, 8)
    u = jax.shard_map(lambda b: jnp.dot(b, M), mesh=mesh, in_specs=P(), out_specs=P())(row)
    v = jax.shard_map(scaled, mesh=mesh, in_specs=P(), out_specs=P())(u)
    return jax.shard_map(lambda b: b @ jnp.eye(8, dtype=b.dtype), mesh=mesh, in_specs=P(), out_specs=P())(v)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(xs)
    M = np.linspace(-1.0, 1.0, 64, dtype=np.float32).reshape(8, 8)
    return result, (xs @ M) @ np.full((8, 8), 0.25, dtype=np.float32)
