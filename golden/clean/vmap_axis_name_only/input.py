"""vmap names its axis 'x' (axis_name=, a collective name), not spmd_axis_name."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return v - 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, axis_name='x')(xs)
    reference = np.asarray(xs) - 1.0
    return result, reference
