import jax
import numpy as np
import numpy.matlib
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((1, 2, 4), ('batch', 'x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    # numpy.matlib builds matrices, always 2-D: ones(8) is (1, 8), a batch of one row
    x = np.asarray(numpy.matlib.ones(8, dtype=np.float32))
    result = jax.vmap(block, spmd_axis_name='batch')(x)
    reference = x * 2.0
    return result, reference
