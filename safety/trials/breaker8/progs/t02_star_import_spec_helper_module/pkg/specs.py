from jax.sharding import PartitionSpec as P

from pkg.config import *


def row_spec():
    """Rows over the data axis, columns whole."""
    return P(DATA, None)
