import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((1, 1, 8), ('batch', 'x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    # ndmin=2 prepends a dimension: x is (1, 8), a batch of one example
    x = jnp.array(np.ones(8, np.float32), ndmin=2)
    result = jax.vmap(block, spmd_axis_name='batch')(x)
    reference = np.asarray(x) + 1.0
    return result, reference
