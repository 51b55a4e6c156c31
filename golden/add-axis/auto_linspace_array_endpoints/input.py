import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    # array endpoints: one row per endpoint, 8 steps along axis 1, so 6 rows (not divisible by 'y', size 4)
    x = np.linspace(np.zeros(6), np.ones(6), 8, axis=1).astype(np.float32)
    result = jax.vmap(block, spmd_axis_name='x')(x)
    reference = x * 2.0
    return result, reference
