import jax
import numpy as np
from jax.sharding import NamedSharding

from pkg.config import MESH
from pkg.model import ROWS, row_sums


def evaluate(x):
    return np.asarray(row_sums(jax.device_put(x, NamedSharding(MESH, ROWS))))
