import jax
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh(
    (2, 4),  # 8 devices
    ("data", "model"),
    axis_types=(AxisType.Auto, AxisType.Auto),  # no explicit sharding
)


def block(v):
    return v * 2


def sharded(x):
    return jax.shard_map(block, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


per_example = jax.vmap(
    sharded,
    spmd_axis_name="data",  # one example per data shard
)
