import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

def block(a, b):
    return jax.shard_map(lambda u, w: w * u, mesh=mesh, in_specs=(P('x'), P('x')), out_specs=P('x'))(a, b)


def compute():
    xa = np.arange(8 * 2, dtype=np.float32).reshape(8, 2) / 10.0
    xb = np.arange(8 * 2 * 2, dtype=np.float32).reshape(8, 2, 2)
    return jax.vmap(block)(xa, xb)
