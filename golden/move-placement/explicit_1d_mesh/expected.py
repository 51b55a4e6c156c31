"""A plain vmap over a batch placed on the only axis of a 1-D Explicit mesh; the shard_map names that axis."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((8,), ('S',))


def body(t):
    return t * 2.0 + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('S'), out_specs=P('S'))(x)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    xs = jax.device_put(xs, NamedSharding(mesh, P(None, 'S')))
    result = jax.vmap(layer)(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
