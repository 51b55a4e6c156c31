import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P


DATA = 'x'
mesh_a = jax.make_mesh((2, 4), (DATA, 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
mesh_b = jax.make_mesh((2, 2, 2), (DATA, 'z', 'w'), axis_types=(AxisType.Auto,) * 3)


def block(v):
    a = jax.shard_map(lambda b: b * 2.0, mesh=mesh_a, in_specs=P(DATA), out_specs=P(DATA))(v)
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh_b, in_specs=P(DATA), out_specs=P(DATA))(a)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block)(xs)
