"""fuzz seed 90384: a shard_map nested in a partial-manual shard_map's body (`axis_names={'x'}`), on its context
mesh, whose `axis_names` names `'y'`, under a vmap over a batch placed on the Explicit axis `'y'` (the spmd
vmap over `'y'`, or a plain vmap) with `jax.lax.map` or `jax.jit` on the way: the vmap takes `'y'` out of the
nested shard_map's context mesh, and JAX raises `jax.shard_map requires axis_names=frozenset({'y'}) to be a
subset of mesh.axis_names=frozenset({'z', 'x'})`. SPMD008 at each nested `axis_names`, no fix."""
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


def replicated_block(x):
    def outer(t):
        return jax.shard_map(body, in_specs=P(), out_specs=P(), axis_names={'y'})(t)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def apply(x):
    return jax.lax.map(block, x[None])[0]


def apply_jitted(x):
    return jax.jit(replicated_block)(x)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('y', None, None))
        a = jax.vmap(apply, spmd_axis_name='y')(xs)
        b = jax.vmap(apply_jitted)(xs)
    result = np.concatenate([np.asarray(a), np.asarray(b)])
    return result, np.concatenate([xs0 * 2.0 + 1.0] * 2)
