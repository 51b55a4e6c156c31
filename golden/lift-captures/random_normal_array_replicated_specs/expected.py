"""A shard_map body closing over `w = jax.random.normal(key, (8,))`, an array the spmd vmap does not batch, under
all-replicated specs and check_vma=True (issue 22, kind 9).

It fails as a closure over `np.linspace(...)` does (`AssertionError: ManualAxisType`; measured on jax 0.10.2:
safety/measurements/open_items_issue22_kind9.py, part C): SPMD003. Lifting `w` into a `P()` operand runs.
"""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def f(x):
    w = jax.random.normal(jax.random.key(0), (8,))
    return jax.shard_map(lambda b, w: b * w, mesh=mesh, in_specs=(P(), P()), out_specs=P())(x, w)


def main():
    a = np.linspace(-1.0, 2.0, 32, dtype=np.float32).reshape(4, 8)
    w = np.asarray(jax.random.normal(jax.random.key(0), (8,)))
    return jax.vmap(f, spmd_axis_name='x')(a), a * w
