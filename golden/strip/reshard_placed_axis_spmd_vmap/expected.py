"""A reshard in a helper of the vmapped function names the spmd axis inside a tuple entry, while the call places
the batch on that Explicit axis: JAX raises DuplicateSpecError (P('x', ('x', 'y'))). The strip of 'x' from the
reshard's spec keeps the values (safety/measurements/reshard_inside_vmap.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def settle(v):
    return jax.sharding.reshard(v, NamedSharding(mesh, P('y')))


def apply(v):
    return settle(v * 2.0 + 1.0)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('x', None))
        result = jax.vmap(apply, spmd_axis_name='x')(xs)
    return result, xs0 * 2.0 + 1.0
