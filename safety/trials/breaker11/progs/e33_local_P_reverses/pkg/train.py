import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


from jax.sharding import PartitionSpec


def P(*names):
    return PartitionSpec(*reversed(names))


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(xs)
