"""A plain `jax.vmap` over a batch placed on the Explicit axis `'y'`, reaching a shard_map with `axis_names={'x'}`
whose body applies a shard_map on its context mesh with specs naming `'y'`: reached directly JAX raises
`vmapped away explicit mesh axis cannot appear in shard_map in_specs`; through `jax.lax.map` (here with no
`axis_names` on the nested shard_map) `shard_map in_specs argument must refer to an axis marked as manual`.
SPMD006 at the nested specs, no fix."""
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


def all_manual_block(x):
    def outer(t):
        return jax.shard_map(body, in_specs=P('y'), out_specs=P('y'))(t)
    return jax.shard_map(outer, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x'})(x)


def apply(x):
    return jax.lax.map(all_manual_block, x[None])[0]


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(4, 8, 8) - 85.0) / 64.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('y', None, None))
        a = jax.vmap(block)(xs)
        b = jax.vmap(apply)(xs)
    result = np.concatenate([np.asarray(a), np.asarray(b)])
    return result, np.concatenate([xs0 * 2.0 + 1.0] * 2)
