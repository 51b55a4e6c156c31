import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)


def make(ax):
    if ax == 'x':
        return partial(jax.shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
    return partial(jax.shard_map, mesh=mesh, in_specs=P('y'), out_specs=P('y'))


@make('y')
def block(b):
    return b * 2.0


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block)(xs)
