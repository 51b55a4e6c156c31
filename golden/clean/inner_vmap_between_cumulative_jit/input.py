"""A jax.vmap between the spmd vmap and the shard_map, check_vma=True, a body that only applies cumulative ops.

`jnp.cumprod` and `jax.lax.cumlogsumexp` (positional or keyword `axis`, lax's `reverse`) are measured to run
under hazard H2's conditions on jax 0.10.2, eagerly and under jax.jit: SPMD007 is not reported.
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    c = jnp.cumprod(b, -1)
    return jax.lax.cumlogsumexp(c, axis=0, reverse=True)


def block(r):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(r)


def apply(x):
    return jax.vmap(block)(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) / 64.0 + 0.5
    result = jax.jit(jax.vmap(apply, spmd_axis_name='x'))(xs)
    blocks = np.asarray(xs).reshape(4, 4, 4, 2)
    c = np.cumprod(blocks, axis=-1)
    reference = np.flip(np.logaddexp.accumulate(np.flip(c, -1), axis=-1), -1).reshape(4, 4, 8)
    return result, reference
