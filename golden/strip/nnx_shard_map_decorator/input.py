"""@partial(nnx.shard_map, ...) with an elementwise body, under jax.vmap with spmd axis 'x' naming 'x' in its specs."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@partial(nnx.shard_map, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))
def body(b):
    return b * 2.0 + 1.0


def main():
    xs = jnp.arange(4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = jax.vmap(body, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
