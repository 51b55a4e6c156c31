"""An all-replicated body (P(), check_vma=True) under an spmd vmap contracting its block with a module constant matrix (`b @ M`): runs and matches (safety/measurements/capture_array_contraction.py), not SPMD003; `b * W` of the same rank fails."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
M = np.linspace(0.5, 1.5, 64, dtype=np.float32).reshape(8, 8)


def apply(x):
    return jax.shard_map(lambda b: b @ M, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    result = jax.vmap(apply, spmd_axis_name='x')(jnp.asarray(xs0))
    return result, xs0 @ M
