from functools import partial

import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'data', 'model'))


def assigned(x, axis):
    smap = jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(axis), out_specs=P(axis))
    return smap(x)


def decorated(x, axis):
    @partial(jax.shard_map, mesh=mesh, in_specs=P(axis), out_specs=P(axis))
    def body(v):
        return v * 2.0
    return body(x)


def in_lambda(x, axis):
    return jax.jit(lambda y: jax.shard_map(lambda v: v * 2.0, mesh=mesh, in_specs=P(axis), out_specs=P(axis))(y))(x)


def warm_up(x):
    return assigned(x, 'model') + decorated(x, 'model') + in_lambda(x, 'model')
