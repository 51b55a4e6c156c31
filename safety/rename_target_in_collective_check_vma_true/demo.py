"""Same as rename_target_in_collective with check_vma=True (default): the renamed program raises."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def body(v):
    return v + jax.lax.psum(v.sum(), 'z')


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)


def main():
    xs = jnp.arange(4 * 4 * 4, dtype=jnp.float32).reshape(4, 4, 4)
    result = jax.vmap(layer, spmd_axis_name='z')(xs)
    x = np.asarray(xs)
    block_sums = x.reshape(4, 2, 2, 2, 2).sum(axis=(2, 4), keepdims=True)  # (2, 2) blocks of each example
    reference = (x.reshape(4, 2, 2, 2, 2) + 2.0 * block_sums).reshape(4, 4, 4)  # 'z' has size 2
    return result, reference
