"""writes10 w45: `DATA = 'model'` is rebound by `globals()['DATA'] = 'data'` before the vmap runs;
read as its statement, the program was 'All checks passed!' while JDATA raises."""
import dataclasses

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))
DATA = 'model'



def block(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(DATA), out_specs=P(DATA))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    globals()['DATA'] = 'data'
    return jax.vmap(block, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
