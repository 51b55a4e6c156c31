"""On a 2x4 Explicit mesh the batch is placed with P('x', 'y'); the shard_map it reaches takes P('x')."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def body(t):
    return jnp.tanh(t) * 3.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 16.0
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', 'y')))
    result = jax.vmap(layer)(xs)
    reference = np.tanh(np.asarray(xs)) * 3.0
    return result, reference
