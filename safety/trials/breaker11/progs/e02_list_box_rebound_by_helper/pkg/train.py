import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


def replace(box):
    box[0] = jax.device_put(box[0], NamedSharding(MESH, P('x', None)))


def step(xs):
    box = [jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))]
    replace(box)
    return accumulate(box[0])
