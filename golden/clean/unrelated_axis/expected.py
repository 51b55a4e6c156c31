"""The batch goes to mesh axis 'x'; the reached shard_map splits features over 'y' only."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return jnp.sin(v) + v


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(body)(xs)
    return result, reference
