import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def red(t):
    return t + lax.psum(t, 'y')


def block(v):
    # the builtin map calls `red`, whose psum runs over 'y'
    body = lambda b: list(map(red, [b]))[0]
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def main():
    x = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(block, spmd_axis_name='x')(x)
    reference = np.asarray(x) * 5.0  # t + psum over the 4 'y' devices of equal blocks
    return result, reference
