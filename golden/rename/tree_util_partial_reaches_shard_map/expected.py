import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    x = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    scaled = jax.tree_util.Partial(block)  # a functools.partial that is a pytree
    result = jax.vmap(lambda v: scaled(v), spmd_axis_name='y')(x)
    reference = np.asarray(x) * 2.0
    return result, reference
