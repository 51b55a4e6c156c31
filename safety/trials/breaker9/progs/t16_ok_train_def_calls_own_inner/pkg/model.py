import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def block(x, axis):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P(axis), out_specs=P(axis))(x)


def inner(x, axis="model"):
    return block(x, axis) + 1.0


def evaluate(x):
    return inner(x, "data")


def run(fn):
    def body(x):
        return fn(x)

    xs = jnp.ones((4, 8))
    return jax.vmap(body, spmd_axis_name="data")(xs), xs
