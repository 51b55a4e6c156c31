"""A shard_map body closing over `w = jax.random.uniform(key, (8,))` (unbatched) with check_vma=False under the
spmd vmap: runs and matches (measured on jax 0.10.2: safety/measurements/open_items_issue22_kind9.py, part C).
"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def f(x):
    w = jax.random.uniform(jax.random.key(0), (8,))
    return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(x)


def main():
    a = np.linspace(-1.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    w = np.asarray(jax.random.uniform(jax.random.key(0), (8,)))
    return jax.vmap(f, spmd_axis_name='x')(a), a * w
