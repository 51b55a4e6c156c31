"""The only colliding spec belongs to an argument that vmap does not batch (in_axes=(0, None))."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v, w):
    return v * 2.0 + 1.0, w - 1.0


def apply(x, w):
    return jax.shard_map(body, mesh=mesh, in_specs=(P('y'), P(None)), out_specs=(P('y'), P(None)))(x, w)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    w = jnp.arange(8, dtype=jnp.float32) * 10.0
    result = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')(xs, w)
    reference = (np.asarray(xs) * 2.0 + 1.0, np.broadcast_to(np.asarray(w) - 1.0, (4, 8)))
    return result, reference
