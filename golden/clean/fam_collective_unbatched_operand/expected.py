"""psum over the spmd axis of an operand the spmd vmap does not batch (in_axes=(0, None)): JAX runs it correctly."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()), ('i',))


def layer(x, w):
    return jax.shard_map(
        lambda a, b: a + jax.lax.psum(b, 'i'), mesh=mesh, in_specs=(P(), P()), out_specs=P()
    )(x, w)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    w = jnp.arange(8, dtype=jnp.float32) / 8.0
    result = jax.vmap(layer, in_axes=(0, None), spmd_axis_name='i')(xs, w)
    reference = np.asarray(xs) + 8.0 * np.asarray(w)  # psum of a replicated w over the 8 devices of 'i'
    return result, reference
