import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


NAMES = (None, 'x')
NAMES = NAMES[::-1]


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(*NAMES)))
    return accumulate(xs)
