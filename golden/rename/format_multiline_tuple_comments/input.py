import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 2, 2), ("x", "y", "z"))


def inner(v):
    return v + 1


def sharded(x):
    return jax.shard_map(
        inner,
        mesh=mesh,
        in_specs=P("y"),  # model axis
        out_specs=P("y"),
    )(x)


batched = jax.vmap(
    sharded,
    in_axes=0,
    spmd_axis_name=(
        "x",  # data parallel
        "y",  # collides with the specs
    ),  # keep this layout
)


def run():
    return batched(np.ones((8, 4), dtype=np.float32))  # the batch (8) is visible: the rename is safe
