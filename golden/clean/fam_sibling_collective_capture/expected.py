"""A shard_map next to the spmd vmap (not reached by it) psums over 'x' and closes over a local of its caller."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def prep(v):
    return v * 2.0


def pipeline(xs, offset):
    ys = jax.vmap(prep, spmd_axis_name='x')(xs)
    return jax.shard_map(
        lambda b: jax.lax.psum(b, 'x') + offset, mesh=mesh, in_specs=P('x', 'y'), out_specs=P(None, 'y')
    )(ys)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = pipeline(xs, jnp.float32(1.0))
    a = np.asarray(xs) * 2.0
    reference = a[:2] + a[2:] + 1.0
    return result, reference
