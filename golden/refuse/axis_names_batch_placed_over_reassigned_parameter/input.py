"""`axis_names={'x', 'y'}` naming the spmd axis `'x'` on an Explicit mesh, the batch placed on it by
`xs = jax.sharding.reshard(xs, P('x', None))`, which rebinds the function's parameter `xs`.

The value of `xs` at the vmap's call is the reshard's (the last assignment before it), not the parameter's: JAX
raises `jax.shard_map requires axis_names=frozenset({'x', 'y'}) to be a subset of mesh.axis_names=frozenset({'y'})`
(SPMD008; `refuse/axis_names_names_placed_spmd_axis` places the batch with a new name). No fix is measured for it:
nothing applied.
"""
import jax
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(x)


def step(xs):
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(xs, P('x', None))
        return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 3.0
    return step(a), a * 2.0 + 1.0
