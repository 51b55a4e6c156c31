"""flax.nnx.vmap with spmd axis 'x' of a plain function that reaches a shard_map over ('x', 'y')."""
import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b - 3.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = nnx.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) - 3.0
    return result, reference
