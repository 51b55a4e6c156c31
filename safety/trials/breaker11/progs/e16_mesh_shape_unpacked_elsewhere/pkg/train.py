import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    return accumulate(xs) * scale()


def scale():
    from pkg import config
    rows, cols = config.MESH.devices.shape
    return rows * cols / 8.0
