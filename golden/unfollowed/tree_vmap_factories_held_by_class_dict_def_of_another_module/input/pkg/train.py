import jax.numpy as jnp
import numpy as np

from pkg import utils
from pkg.model import block
from pkg.utils import Batching

by_dict = utils.VMAPS['data'](block)
by_class = Batching.vec(block)
by_call = utils.per_example()(block)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return by_dict(x) + by_class(x) + by_call(x), np.asarray(x) * 6.0
