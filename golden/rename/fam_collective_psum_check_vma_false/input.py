"""check_vma=False and a psum over the spmd axis 'x': the input runs but mixes batch elements (wrong values)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ('x', 'y', 'z'))


def total_over_x(v):
    return jax.lax.psum(v, 'x')


def layer(x):
    return jax.shard_map(
        total_over_x, mesh=mesh, in_specs=P('y'), out_specs=P('y'), check_vma=False
    )(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0  # the block is replicated over the 2 devices of 'x'
    return result, reference
