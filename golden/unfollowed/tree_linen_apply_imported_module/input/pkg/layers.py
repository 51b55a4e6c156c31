import flax.linen as nn
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))


class Block(nn.Module):
    features: int

    @nn.compact
    def __call__(self, x):
        h = nn.Dense(self.features)(x)
        return jax.shard_map(jax.nn.relu, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(h)
