import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate, block


def run(xs):
    return accumulate(xs)


def step(xs):
    return xs
