import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'data', 'model'))


def block(x, axis):
    return jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(axis), out_specs=P(axis))(x)


def warm_up(x):
    return block(x, 'model')
