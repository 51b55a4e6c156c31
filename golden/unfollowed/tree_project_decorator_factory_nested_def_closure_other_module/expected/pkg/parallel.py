import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def parallel(axis):
    def deco(fn):
        return jax.shard_map(fn, mesh=MESH, in_specs=P(axis), out_specs=P(axis))
    return deco
