import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


class Block:
    def __call__(self, v):
        return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
