import jax
import numpy as np
from jax.sharding import AxisType, Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)


def apply_blocks(block, x):
    return jax.shard_map(block, mesh=mesh, in_specs=P(), out_specs=P())(x)
