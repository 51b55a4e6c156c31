import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def data_parallel(fn):
    """Run fn on each data shard."""
    return jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data"))


def sharded(in_specs, out_specs):
    def deco(fn):
        return jax.shard_map(fn, mesh=MESH, in_specs=in_specs, out_specs=out_specs)
    return deco
