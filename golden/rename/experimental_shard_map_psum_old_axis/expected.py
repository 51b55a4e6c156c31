import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def block_sum(v):
    return jax.lax.psum(v, 'x')


def helper(x):
    return shard_map(block_sum, mesh, P('x'), P('x'))(x) * 0.5


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(helper, spmd_axis_name='y')(x)
    a = np.asarray(x)
    reference = np.concatenate([a[:, :4] + a[:, 4:]] * 2, axis=1) * 0.5
    return result, reference
