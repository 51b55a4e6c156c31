import sys

import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    result = jax.vmap(lambda v: globals().get('block')(v), spmd_axis_name='x')(xs)
    result = result + jax.vmap(lambda v: vars(sys.modules[__name__])['block'](v) * 0.0, spmd_axis_name='x')(xs)
    result = result + jax.vmap(lambda v: sys.modules[__name__].block(v) * 0.0, spmd_axis_name='x')(xs)
    result = result + jax.vmap(lambda v: eval('block')(v) * 0.0, spmd_axis_name='x')(xs)
    result = result + jax.vmap(globals()['block'], spmd_axis_name='x')(xs) * 0.0
    reference = xs * 2.0
    return result, reference
