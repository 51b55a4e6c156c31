"""Shard_maps nested in a partial-manual shard_map's body (`axis_names={'x'}`), on its context mesh, under the
spmd vmap over `'y'` with the batch placed on the Explicit axis `'y'`: `axis_names={'y'}` with specs `P()`
reached directly runs (the vmap takes `'y'` out of the nested context mesh only under a jit or a staging loop
on the way), and `axis_names={'z'}` runs under `jax.jit` on the way too. No finding."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'))


def body(b):
    return b * 2.0 + 1.0


def replicated_block(x):
    def outer(t):
        return jax.shard_map(body, in_specs=P(), out_specs=P(), axis_names={'y'})(t)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def z_block(x):
    def outer(t):
        return jax.shard_map(body, in_specs=P('z'), out_specs=P('z'), axis_names={'z'})(t)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def apply_jitted(x):
    return jax.jit(z_block)(x)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('y', None, None))
        a = jax.vmap(replicated_block, spmd_axis_name='y')(xs)
        b = jax.vmap(apply_jitted, spmd_axis_name='y')(xs)
    result = np.concatenate([np.asarray(a), np.asarray(b)])
    return result, np.concatenate([xs0 * 2.0 + 1.0] * 2)
