"""Under jax.jit: the batch is placed with jax.reshard on Explicit axis 'x'; the shard_map spec has the entry ('x', 'y')."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def body(v):
    return jnp.abs(v)


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) - 16.0
    xs = jax.reshard(xs, NamedSharding(mesh, P('x', 'y')))
    result = jax.jit(jax.vmap(layer))(xs)
    reference = np.abs(np.asarray(xs))
    return result, reference
