import jax
from jax.sharding import PartitionSpec as P

from pkg.config import sharded


@sharded(P('x'))
def double(b):
    return b * 2.0


def forward(xs):
    return jax.vmap(double, spmd_axis_name='x')(xs)
