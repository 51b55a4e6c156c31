import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


SPEC = P(None, 'x')
exec("SPEC = P('x', None)")


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, SPEC))
    return accumulate(xs)
