import jax

from pkg.config import DATA
import numpy as np
from pkg.model import forward


def ordered(xs):
    return jax.vmap(forward)(np.asarray(xs))
