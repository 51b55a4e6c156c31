import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def apply_blocks(block, x):
    return jax.shard_map(block, mesh=mesh, in_specs=P("model"), out_specs=P("model"))(x)
