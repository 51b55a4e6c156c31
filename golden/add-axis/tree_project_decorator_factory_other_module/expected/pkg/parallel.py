"""The mesh, its axis names, and a decorator factory sharding a function's rows over the axis it is given."""
import functools

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

DATA = "data"
MODEL = "model"
MESH = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ("batch", DATA, MODEL))


def sharded(axis):
    def deco(fn):
        return functools.wraps(fn)(jax.shard_map(fn, mesh=MESH, in_specs=P(axis), out_specs=P(axis)))
    return deco
