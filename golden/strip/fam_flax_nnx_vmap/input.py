"""flax.nnx.vmap with spmd_axis_name over a function whose elementwise shard_map splits features over 'x'."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return jnp.sqrt(b + 1.0)


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = nnx.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.sqrt(np.asarray(xs) + 1.0)
    return result, reference
