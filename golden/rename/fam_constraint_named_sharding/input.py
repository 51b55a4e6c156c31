"""The vmapped function constrains each example to P('x', None) before an elementwise shard_map over 'y'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def body(b):
    return b * 2.0 + 1.0


def layer(v):
    v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P('x', None)))
    return jax.shard_map(body, mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(v)


def main():
    xs = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
