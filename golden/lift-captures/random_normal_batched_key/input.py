"""A shard_map body closing over `w = jax.random.normal(k, (8,))` where `k` is a key the spmd vmap batches
(issue 22, kind 9): `w` is batched, and JAX fails on it (measured on jax 0.10.2:
safety/measurements/open_items_issue22_kind9.py, part C): SPMD003; lifting `w` runs.
"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def f(x, k):
    w = jax.random.normal(k, (8,))
    return jax.shard_map(lambda b: b * w, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    a = np.linspace(-1.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    keys = jax.random.split(jax.random.key(0), 4)
    w = np.stack([np.asarray(jax.random.normal(keys[i], (8,))) for i in range(4)])
    return jax.vmap(f, spmd_axis_name='x')(a, keys), a * w
