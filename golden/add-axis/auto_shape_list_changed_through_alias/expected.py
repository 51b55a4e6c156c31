import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((1, 2, 4), ('batch', 'x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    shape = [8, 8]
    rows = shape  # the same list: setting its first item sets `shape`'s
    rows[0] = 6  # 6 rows, not divisible by 'y' (size 4)
    x = jax.random.normal(jax.random.key(0), shape)
    result = jax.vmap(block, spmd_axis_name='batch')(x)
    reference = x * 2.0
    return result, reference
