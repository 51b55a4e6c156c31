"""writes10 w50: `__init__` writes `self.__dict__['AXIS'] = 'data'` over the class attribute 'model' that
the shard_map reads as `self.AXIS`; read as the class attribute, the program was 'All checks passed!' while
JAX raises."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Layer:
    AXIS = 'model'

    def __init__(self):
        self.__dict__['AXIS'] = 'data'

    def __call__(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)


def block(x):
    return Layer()(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(block, spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
