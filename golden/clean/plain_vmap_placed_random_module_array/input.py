"""Issue 22 kind 9 (`jax.random` arrays) under a plain vmap over a batch placed on the Explicit axis 'x': the
body closes over a module-level `jax.random.normal(key, (8,))` array (not placed). It runs and matches, as a numpy
constant does (safety/measurements/plain_vmap_placed_spellings.py, part 6): clean."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
W = jax.random.normal(jax.random.key(0), (8,))


def block(x):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * W, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    result = jax.vmap(block)(xs)
    return result, (xs0 * 2.0 + 1.0) * np.asarray(W)[None, :]
