"""A plain vmap over a batch placed on Explicit 'x', whose function reshards its value over the other axis 'y'
and a value it makes itself over 'x': both run and match (safety/measurements/reshard_inside_vmap.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def apply(v):
    y = jax.sharding.reshard(v * 2.0 + 1.0, P('y'))
    c = jax.sharding.reshard(jnp.arange(8.0, dtype=jnp.float32), P('x'))
    return y + c.sum()


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('x', None))
        result = jax.vmap(apply)(xs)
    return result, xs0 * 2.0 + 1.0 + 28.0
