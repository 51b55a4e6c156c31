"""jax.experimental.shard_map (check_rep=True by default) under two vmaps; the spmd vmap is the outer one."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(b):
    return jnp.abs(b) + 0.5


def block(v):
    return shard_map(body, mesh, P('y'), P('y'), check_rep=False)(v)


def main():
    xs = jnp.arange(4 * 2 * 8, dtype=jnp.float32).reshape(4, 2, 8) - 30.0
    result = jax.vmap(jax.vmap(block), spmd_axis_name='x')(xs)
    reference = np.abs(np.asarray(xs)) + 0.5
    return result, reference
