"""No spec names 'x', but the body sums over mesh axis 'x', the vmap's spmd axis (check_vma=True)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def add_block_total(v):
    return v + jax.lax.psum(v.sum(), 'x')


def layer(x):
    return jax.shard_map(add_block_total, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='z')(xs)
    blocks = np.asarray(xs).reshape(4, 2, 4)
    # 'x' only replicates the block here, so the psum over its 2 devices doubles the block total
    reference = (blocks + 2.0 * blocks.sum(axis=2, keepdims=True)).reshape(4, 8)
    return result, reference
