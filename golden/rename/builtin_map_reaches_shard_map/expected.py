import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def both(v, w):
    # the builtin map calls `block` on each operand
    a, b = map(block, [v, w])
    return a + b


def main():
    x = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    result = jax.vmap(both, spmd_axis_name='y')(x, x + 1.0)
    reference = (np.asarray(x) * 2.0) + (np.asarray(x) + 1.0) * 2.0
    return result, reference
