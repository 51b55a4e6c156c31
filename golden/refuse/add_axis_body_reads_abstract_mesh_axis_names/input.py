import jax
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def scale(b):
    # the body sees the shard_map's mesh as the abstract mesh: its first axis is 'x' (size 2)
    first = jax.sharding.get_abstract_mesh().axis_names[0]
    return b * jax.lax.axis_size(first)


def block(v):
    return jax.shard_map(scale, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    return jax.vmap(block, spmd_axis_name='x')(xs), xs * 2.0
