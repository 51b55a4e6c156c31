import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(
    np.array(jax.devices()).reshape(2, 4),  # 8 host devices
    ("x", "y"),  # data, model
)


def sharded(x):
    return jax.shard_map(
        lambda v: v + 1,
        mesh=mesh,
        in_specs=P("y"),
        out_specs=P("y"),
        axis_names={"x", "y"},  # fully manual
    )(x)


batched = jax.vmap(
    sharded,
    spmd_axis_name=(
        "x",
        "y",
    ),  # data and model
)
