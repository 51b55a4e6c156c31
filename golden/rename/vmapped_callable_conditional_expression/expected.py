import os

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
SHARDED = os.environ.get('PLAIN_BLOCK') is None


def sharded_block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


def plain_block(v):
    return v * 2.0


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    block = sharded_block if SHARDED else plain_block
    result = jax.vmap(block, spmd_axis_name='y')(xs)
    return result, np.asarray(xs) * 2.0
