"""Fuzz seed 200100's form with the reshard's spec held in a name another function also uses: the strip of the
reshard would change that use too, so it is unsafe, and the strip of the shard_map's specs alone would leave
the reshard raising DuplicateSpecError: unsafe as well. Nothing safe to apply."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
ROWS = P('x')


def body(b):
    return b * 2.0 + 1.0


def block(x):
    y = jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)
    return jax.sharding.reshard(y, ROWS)


def place(xs):
    return jax.sharding.reshard(xs, ROWS)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P('x', None))
        result = jax.vmap(block)(xs)
    return result, xs0 * 2.0 + 1.0
