"""The mesh and a decorator that runs a function data-parallel over it."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def data_parallel(fn):
    return jax.shard_map(fn, mesh=MESH, in_specs=P("data", "model"), out_specs=P("data", "model"))
