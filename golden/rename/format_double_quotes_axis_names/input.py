import functools

import jax
import numpy as np
from jax import shard_map
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))


@functools.partial(
    shard_map,
    mesh=mesh,
    in_specs=P("x"),
    out_specs=P("x"),
    axis_names={"x"},  # manual over the data axis only
)
def block(v):
    return v * 3


@functools.partial(jax.vmap, spmd_axis_name="x")  # one example per device group
def per_example(x):
    return block(x)


def run():
    return per_example(np.ones((8, 4), dtype=np.float32))  # the batch (8) is visible: the rename is safe
