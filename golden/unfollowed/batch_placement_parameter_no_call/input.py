"""`axis_names={'x', 'y'}` naming the spmd axis `'x'` on an Explicit mesh, the vmap applied to `xs`, a
parameter of `accumulate`, which no call of the project makes (a library's helper).

Where a caller places the batch decides SPMD008: on `'x'`, JAX raises `jax.shard_map requires axis_names=...
to be a subset of mesh.axis_names` (`main` here, as a user of the helper would); unplaced, it runs. spmdfix
does not know the caller: an SPMD910 record at `xs`, never silence.
"""
import jax
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('y'), out_specs=P('y'),
                         axis_names={'x', 'y'})(x)


def accumulate(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)


def main():
    a = np.arange(32, dtype=np.float32).reshape(4, 8) / 3.0
    with jax.set_mesh(mesh):
        placed = jax.sharding.reshard(a, P('x', None))
        return globals()['accumulate'](placed), a * 2.0 + 1.0
