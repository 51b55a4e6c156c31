import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'), axis_types=(AxisType.Auto,) * 3)


def double(b):
    return b * 2.0


def make(ax):
    spec = P(ax)
    return partial(jax.shard_map, mesh=mesh, in_specs=spec, out_specs=spec)


def block(v):
    return make('y')(double)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block)(xs)
