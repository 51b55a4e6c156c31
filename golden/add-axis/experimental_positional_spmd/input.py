import jax
import jax.numpy as jnp
import numpy as np
from jax import vmap as vm
from jax.experimental.shard_map import shard_map
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return jnp.cos(v)


def helper(x):
    return shard_map(body, mesh, P('y', 'x'), P('y', 'x'), check_rep=True)(x)


def main():
    x = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4)
    result = vm(helper, 0, 0, None, None, 'x')(x)
    reference = np.cos(np.asarray(x))
    return result, reference
