"""`jax.lax.map(block, x, batch_size=2)` between the spmd vmap and a check_vma=True shard_map whose body multiplies
its block by a module-level constant matrix (which alone runs: golden/clean/lax_map_batch_size_constant_matrix_body)
and then adds `1.0`, a binary primitive. JAX raises `... was given out_specs which require replication which can't
be statically inferred` (measured on jax 0.10.2, eager and jit: safety/measurements/spmd007_body_collectives_constants.py).
SPMD007; disable-check-vma (unsafe, as always) runs and matches."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
M = np.linspace(-1.0, 1.0, 4, dtype=np.float32).reshape(2, 2)


def block(row):
    return jax.shard_map(lambda b: b @ M + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=True)(row)


def apply(x):
    return jax.lax.map(block, x, batch_size=2)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    return result, (xs.reshape(8, 4, 4, 2) @ M + 1.0).reshape(8, 4, 8)
