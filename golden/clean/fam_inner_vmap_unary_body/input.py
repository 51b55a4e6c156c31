"""An inner jax.vmap in the body under check_vma=True, but the body applies unary primitives only: it runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def rows(r):
    return jnp.tanh(jnp.sin(r)) ** 2


def layer(x):
    return jax.shard_map(jax.vmap(rows), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.tanh(np.sin(np.asarray(xs))) ** 2
    return result, reference
