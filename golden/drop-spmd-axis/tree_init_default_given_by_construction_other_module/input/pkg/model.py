import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Layer:
    def __init__(self, scale, axis='data'):
        self.scale = scale
        self.axis = axis  # every construction of the project leaves the default

    def __call__(self, x):
        return jax.shard_map(
            lambda b: b * self.scale, mesh=mesh, in_specs=P(self.axis), out_specs=P(self.axis)
        )(x)
