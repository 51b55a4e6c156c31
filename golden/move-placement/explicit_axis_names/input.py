"""The shard_map passes axis_names={'x', 'y'}, still naming the axis the plain vmap maps away."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def body(t):
    return t * 2.0 + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), axis_names={'x', 'y'})(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    xs = jax.device_put(xs, NamedSharding(mesh, P('x', None)))
    result = jax.vmap(layer)(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
