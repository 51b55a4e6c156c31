"""A shard_map decorator over a body that broadcasts the unbatched W (rank 1) against its operand of rank 2
(all-replicated specs, check_vma on), reached through two functions under jax.jit with spmd_axis_name='data':
the operand's rank is followed from the vmap's call through the calls on the way; it runs (no SPMD003)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
W = jnp.array([0.5, 1.0, 1.5, 2.0])


@functools.partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P())
def body(b, w):
    return (b * W) * w


def block(x, w):
    x = jax.lax.with_sharding_constraint(x, NamedSharding(mesh, P('model')))
    return body(x, w)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(128, dtype=np.float32).reshape(8, 4, 4) - 42.0) / 32.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    result = jax.jit(jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='data'))(jnp.asarray(xs0), jnp.asarray(ws0))
    return result, xs0 * np.asarray(W) * ws0[:, None, None]
