"""Only the sharding constraint names the spmd axis; the shard_map's specs do not."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return b * b


def layer(v):
    v = jax.lax.with_sharding_constraint(v, NamedSharding(mesh, P(None, None)))
    return jax.shard_map(body, mesh=mesh, in_specs=P(None, 'y'), out_specs=P(None, 'y'))(v)


def main():
    xs = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) ** 2
    return result, reference
