"""Issue 22 kind 9 (`jax.random` arrays) under a plain vmap over a batch placed on the Explicit axis 'x': the
body closes over `w = jax.random.normal(k, (8,))` made from a batched key. JAX fails (`For primitive mul, context
mesh ...`; safety/measurements/plain_vmap_placed_spellings.py, part 6): SPMD003; lifting `w` makes it an operand and the program runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
KEY = jax.random.key(0)


def block(x, k):
    w = jax.random.normal(k, (8,))
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    keys = jax.random.split(KEY, 8)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    ks = jax.device_put(keys, NamedSharding(mesh, P('x')))
    result = jax.vmap(block)(xs, ks)
    ref = (xs0 * 2.0 + 1.0) * np.stack([np.asarray(jax.random.normal(k, (8,))) for k in keys])
    return result, ref
