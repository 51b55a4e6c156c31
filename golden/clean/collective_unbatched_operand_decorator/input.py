"""psum over the spmd axis of an operand the spmd vmap does not batch, in a body decorated with
`@partial(jax.shard_map, ...)` and applied twice: JAX runs it correctly, also with check_vma=False (no SPMD004).

Every call of `body` passes the unbatched `w` as its second operand, so the psum reduces the same replicated
value on every device of 'i' whatever the vmap batches.
"""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ('i',))


def layer(x, w):
    @partial(jax.shard_map, mesh=mesh, in_specs=(P(), P()), out_specs=P(), check_vma=False)
    def body(a, b):
        return a * jax.lax.psum(b, 'i')

    return body(x, w) + body(x * 2.0, w)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    w = jnp.arange(8, dtype=jnp.float32) / 8.0
    result = jax.vmap(layer, in_axes=(0, None), spmd_axis_name='i')(xs, w)
    reference = 3.0 * np.asarray(xs) * (8.0 * np.asarray(w))  # psum of a replicated w over the 8 devices of 'i'
    return result, reference
