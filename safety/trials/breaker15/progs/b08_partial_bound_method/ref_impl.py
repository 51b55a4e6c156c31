import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax import lax
from jax.sharding import AxisType, Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))

class Layer:
    def _block(self, k, b):
        return b + k * lax.psum(b, 'y')

    def __call__(self, v):
        return jax.shard_map(functools.partial(self._block, 1.0), mesh=mesh, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)

def compute():
    xs = np.arange(8 * 8, dtype=np.float32).reshape(8, 8) / 10.0
    layer = Layer()
    return jax.vmap(layer)(xs)
