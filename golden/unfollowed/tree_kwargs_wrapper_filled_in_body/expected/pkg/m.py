import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
from pkg.helpers import batched

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def step(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return batched(step, spmd_axis_name='x')(x), np.asarray(x) * 2.0
