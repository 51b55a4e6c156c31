"""A psum over the spmd axis of an operand the vmap does not batch (in_axes=(0, None)), in a shard_map applied
by a @jax.jit function: jit keeps the operand unbatched, and it runs correctly (no SPMD004)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b, w):
    return (b * 2.0 + 1.0) * jax.lax.psum(w, 'x')


@jax.jit
def block(x, w):
    return jax.shard_map(body, mesh=mesh, in_specs=(P(), P()), out_specs=P())(x, w)


def main():
    xs = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    w = np.float32(1.5)
    result = jax.vmap(block, in_axes=(0, None), spmd_axis_name='x')(jnp.asarray(xs), jnp.asarray(w))
    return result, (xs * 2.0 + 1.0) * (w * 2)
