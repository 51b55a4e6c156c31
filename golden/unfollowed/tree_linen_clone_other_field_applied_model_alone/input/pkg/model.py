import flax.linen as nn
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Layer(nn.Module):
    AXIS: str = 'model'  # the only construction, in pkg/train.py, leaves it; its clone gives 'data'

    def __call__(self, x):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P(self.AXIS), out_specs=P(self.AXIS))(x)
