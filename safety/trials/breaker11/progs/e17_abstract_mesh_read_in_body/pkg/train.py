import functools

import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate


def step(xs):
    xs = jax.device_put(xs, NamedSharding(MESH, P(None, 'x')))
    with jax.set_mesh(MESH):
        first = jax.sharding.get_abstract_mesh().axis_names[0]
        n = jax.sharding.get_abstract_mesh().shape[first]
    return accumulate(xs) * (n / 2.0)
