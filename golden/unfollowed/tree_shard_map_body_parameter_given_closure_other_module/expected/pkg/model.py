"""A helper applying shard_map to the callable it is given; pkg/train.py passes a closure over a batched value."""
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def apply_blocks(block, x):
    return jax.shard_map(block, mesh=MESH, in_specs=P("model"), out_specs=P("model"))(x)
