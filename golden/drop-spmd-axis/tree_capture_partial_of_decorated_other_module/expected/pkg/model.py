import functools

import jax
from jax.sharding import Mesh, PartitionSpec as P
import numpy as np

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def swapped(fn):
    @functools.wraps(fn)
    def wrapper(a, b):
        return fn(b, a)
    return wrapper


@swapped
def block(w, x):
    def body(b):
        return b * w.sum()
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)
