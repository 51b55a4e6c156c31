import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()[:8]).reshape(2, 4), ("data", "model"))


class Block:
    axis = "data"

    def apply(self, x):
        return jax.shard_map(lambda a: a * 2.0, mesh=MESH, in_specs=P(self.axis), out_specs=P(self.axis))(x)
