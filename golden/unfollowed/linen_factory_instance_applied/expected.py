import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

# `layer = make_layer('data')`: a function of the project returns the module, built with AXIS 'data'; the class
# of what a function returns is not read, and `layer.apply` runs `Layer.__call__` ("All checks passed!" while
# JAX raised). An SPMD910 record at the call, naming `Layer.__call__`.
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Layer(nn.Module):
    AXIS: str = 'model'

    def __call__(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)


def make_layer(axis):
    return Layer(AXIS=axis)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    layer = make_layer('data')
    return jax.vmap(lambda x: layer.apply({}, x), spmd_axis_name='data')(xs), np.asarray(xs) * 2.0
