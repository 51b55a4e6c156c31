"""`axis_names={'x', 'y'}` naming the spmd axis `'x'` on an Explicit mesh, the vmap applied to `xs`, which an
`if` re-places on `'x'` (`jax.sharding.reshard(xs, P('x', None))` under `jax.set_mesh`) before the call
(breaker10 t46).

`flip` is true here: the batch is on `'x'` and JAX raises `jax.shard_map requires axis_names=... to be a subset
of mesh.axis_names` (SPMD008's error). Which branch runs is not read: unplaced, the same program fails with an
in_specs mismatch eagerly and runs under `jax.jit`
(safety/measurements/spmd008_axis_names_unknown_placement.py). An SPMD910 record at `xs` naming the `if`; before,
no finding and no record.
"""
import jax
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(x)


def step(xs, flip=True):
    with jax.set_mesh(mesh):
        if flip:
            xs = jax.sharding.reshard(xs, P('x', None))
        return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 3.0
    return step(a), a * 2.0 + 1.0
