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


class Model:
    JIT = partial(jax.jit)

    def __call__(self, v):
        return self.JIT(block, out_shardings=NamedSharding(mesh, P('y')))(v)


def block(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Model())(xs)
