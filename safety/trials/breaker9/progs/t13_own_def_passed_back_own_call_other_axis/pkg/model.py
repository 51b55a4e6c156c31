import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def block(x, axis):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(axis), out_specs=P(axis))(x)


def inner(x, axis="data"):
    return block(x, axis) + 1.0


def evaluate(x):
    return inner(x, "model")


def accumulate(fn, xs, spmd_axis_name="data"):
    return jax.vmap(fn, spmd_axis_name=spmd_axis_name)(xs)
