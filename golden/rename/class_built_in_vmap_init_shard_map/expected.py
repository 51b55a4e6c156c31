"""A class built inside the spmd-vmapped function runs its __init__, which applies a shard_map naming the spmd
axis: JAX raises; spmdfix followed `Scale.__call__` (not run) instead of `__init__` and said nothing (newuser9)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Scale:
    def __init__(self, x):
        self.y = jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)


def create(x):
    return Scale(x).y


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(create, spmd_axis_name='model')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
