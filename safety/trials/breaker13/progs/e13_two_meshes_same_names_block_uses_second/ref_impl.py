import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
mesh2 = jax.make_mesh((4, 2), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * 2.0, mesh=mesh2, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(4 * 8, dtype=np.float32).reshape(4, 8)
    return jax.vmap(block)(xs) + mesh.shape['y']
