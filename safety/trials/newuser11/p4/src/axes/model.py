"""Layers."""
import jax
from jax.sharding import PartitionSpec as P

from axes.config import DATA, MESH, SIZES


def _mean_rows(b):
    # each block holds 1/SIZES[DATA] of the rows: scale the local sum to a mean contribution
    return b / SIZES[DATA]


def mean_rows(x):
    return jax.shard_map(_mean_rows, mesh=MESH, in_specs=P(DATA, None), out_specs=P(DATA, None))(x)


class Affine:
    """x * a + c, rows over DATA."""

    def __init__(self, a, c):
        self.a, self.c = a, c

    def __call__(self, x):
        return jax.shard_map(lambda b: b * self.a + self.c, mesh=MESH, in_specs=P(DATA, None),
                             out_specs=P(DATA, None))(x)
