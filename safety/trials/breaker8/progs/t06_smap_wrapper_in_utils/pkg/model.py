import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg import utils
from pkg.config import DATA


def block(x):
    return utils.smap(lambda b: jnp.exp(b) - 1.0, P(DATA), P(DATA))(x)
