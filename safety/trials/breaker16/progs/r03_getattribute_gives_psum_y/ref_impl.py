import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def _red(t):
    return t + lax.psum(t, 'y')


class Ops:
    def __getattribute__(self, name):
        if name == 'scale':
            return _red
        return object.__getattribute__(self, name)

    def scale(self, t):
        return t * 2.0


OPS = Ops()


def block(v):
    return jax.shard_map(lambda b: OPS.scale(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(block)(xs)
