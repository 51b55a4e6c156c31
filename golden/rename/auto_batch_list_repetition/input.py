import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    row = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]
    # `*` repeats a list: 8 rows of 8, a batch divisible by 'y' (size 4)
    x = np.array([row] * 8, dtype=np.float32)
    result = jax.vmap(block, spmd_axis_name='x')(x)
    reference = x * 2.0
    return result, reference
