"""Hazard H2 inside the body: the shard_map maps a jax.vmap'd function and passes the check explicitly."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def scale(r):
    return r * 3.0 - 1.0


def layer(v):
    return jax.shard_map(
        jax.vmap(scale), mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'), check_vma=True
    )(v)


def main():
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 3.0 - 1.0
    return result, reference
