"""A shard_map nested in a partial-manual shard_map's body (`axis_names={'x'}`), on its context mesh, whose specs
name `'y'`, under the spmd vmap over `'y'` with the batch placed on the Explicit axis `'y'`, reached directly
(a `jax.jit` only around the vmap): the enclosing shard_map runs, the nested one raises `vmapped away explicit
mesh axis cannot appear in shard_map in_specs`. SPMD001/002 at the nested specs, quoting that error; no fix."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'))


def body(b):
    return b * 2.0 + 1.0


def block(x):
    def outer(t):
        return jax.shard_map(body, in_specs=P('y'), out_specs=P('y'), axis_names={'y'})(t)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('y', None, None))
        result = jax.jit(jax.vmap(block, spmd_axis_name='y'))(xs)
    return result, xs0 * 2.0 + 1.0
