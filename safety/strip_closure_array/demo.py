"""Original: in_specs=P('x'), out_specs=P('x'), body b * W with W = [1., 2.] (one block of 2). Applied anyway:
strip -> P(None): the body now gets the whole length-4 vector, which no longer broadcasts against W."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.array([1., 2.])


def scale(b):
    return b * W


def layer(x):
    return jax.shard_map(scale, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def main():
    xs = jnp.arange(4 * 4, dtype=jnp.float32).reshape(4, 4)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * np.tile(np.asarray(W), 2)
    return result, reference
