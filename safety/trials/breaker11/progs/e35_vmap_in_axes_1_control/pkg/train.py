import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


def step(xs):
    xs = jax.device_put(xs.T, NamedSharding(MESH, P('x', None)))
    return accumulate(xs)
