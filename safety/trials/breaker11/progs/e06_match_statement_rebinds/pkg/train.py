import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


def step(xs, mode='batch'):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    match mode:
        case 'batch':
            xs = jax.device_put(xs, NamedSharding(MESH, P('x', None)))
        case _:
            pass
    return accumulate(xs)
