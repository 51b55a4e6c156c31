import functools

import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate, block


def step(xs, mode='batch'):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, P(None, 'y'))
        match mode:
            case 'batch':
                xs = jax.sharding.reshard(xs, P('x', None))
        return accumulate(block, xs)
