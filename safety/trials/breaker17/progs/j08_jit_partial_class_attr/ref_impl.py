import functools
from functools import partial
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def double(b):
    return b * 2.0


class Cfg:
    JIT = partial(jax.jit, out_shardings=NamedSharding(mesh, P('y')))


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Cfg.JIT(block))(xs)
