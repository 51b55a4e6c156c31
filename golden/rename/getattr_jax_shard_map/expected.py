import jax
import jax.experimental.shard_map
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

sm = getattr(jax, 'shard_map')


def double(v):
    return sm(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def shift(v):
    old = getattr(jax.experimental.shard_map, 'shard_map')
    return old(lambda b: b + 1.0, mesh, in_specs=P('x'), out_specs=P('x'))(v)


def step(v):
    return shift(double(v))


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(step, spmd_axis_name='y')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
