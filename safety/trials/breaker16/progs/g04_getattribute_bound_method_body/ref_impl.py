import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


class Layer:
    def __getattribute__(self, name):
        if name == '_helper':
            return _cond
        return object.__getattribute__(self, name)

    def _helper(self, t):
        return t * 2.0

    def _block(self, b):
        return self._helper(b)

    def __call__(self, v):
        return jax.shard_map(lambda b: self._block(b), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    return jax.vmap(Layer())(xs)
