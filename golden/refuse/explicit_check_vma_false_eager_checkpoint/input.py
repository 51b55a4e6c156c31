"""check_vma=False on a shard_map an eager spmd vmap reaches through `jax.checkpoint`, or through `lax.cond` on
a predicate the vmap batches, the batch placed on the Explicit spmd axis: unlike `jax.lax.map`, `lax.scan` and
the other loops (clean/explicit_check_vma_false_staged_loops), they do not stage it away from the eager vmap,
and JAX raises `out_specs argument must refer to an axis marked as manual` as for a direct call. SPMD008, no fix."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(r):
    return jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P(), out_specs=P(), check_vma=False)(r)


def by_checkpoint(x):
    return jax.checkpoint(block)(x)


def by_cond(x):
    return jax.lax.cond(x.sum() > -1e9, block, block, x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    a = jax.vmap(by_checkpoint, spmd_axis_name='x')(xs)
    b = jax.vmap(by_cond, spmd_axis_name='x')(xs)
    result = np.concatenate([np.asarray(a), np.asarray(b)])
    return result, np.concatenate([xs0 * 2.0 + 1.0, xs0 * 2.0 + 1.0])
