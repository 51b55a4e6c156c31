"""The `axis_names` of a shard_map nested on the context mesh comes from a call spmdfix does not evaluate
(`manual_axes()`, `{'y'}` at run time), under the spmd vmap over `'y'` with the batch placed on the Explicit
axis `'y'` and `jax.lax.map` on the way: where SPMD008 would read it, an SPMD910 record at that expression."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'))


def body(b):
    return b * 2.0 + 1.0


def manual_axes():
    return set(n for n in mesh.axis_names if n == 'y')


def block(x):
    def outer(t):
        return jax.shard_map(body, in_specs=P(), out_specs=P(), axis_names=manual_axes())(t)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def apply(x):
    return jax.lax.map(block, x[None])[0]


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('y', None, None))
        result = jax.vmap(apply, spmd_axis_name='y')(xs)
    return result, xs0 * 2.0 + 1.0
