"""Rename needs a free mesh axis; on this 2x4 mesh the only other axis, 'y', is named by the in_shardings of
a jax.jit inside the vmapped function: renaming onto it raises DuplicateSpecError, so rename is not offered."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def scale(t):
    return t * 3.0


def forward(v):
    h = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return jax.jit(scale, in_shardings=NamedSharding(mesh, P(None, 'y')))(h)


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    result = jax.jit(jax.vmap(forward, spmd_axis_name='x'))(xs)
    reference = (np.asarray(xs) * 2.0 + 1.0) * 3.0
    return result, reference
