import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

# make_mesh with constant axis names; spmd_axis_name (DP, 'fsdp') where only DP collides. The batch of 8 is
# visible and divisible by 'fsdp' (size 2), so only DP is replaced and the batch stays placed on 'fsdp'.
DP = 'data'
MODEL = 'model'
mesh = jax.make_mesh((2, 2, 2), (DP, 'fsdp', MODEL), axis_types=(AxisType.Auto, AxisType.Auto, AxisType.Auto))


def layer(x):
    return jax.shard_map(lambda b: b - 1.0, mesh=mesh, in_specs=P(DP, MODEL), out_specs=P(DP, MODEL))(x)


def main():
    xs = jnp.arange(8 * 4 * 4, dtype=jnp.float32).reshape(8, 4, 4)
    return jax.vmap(layer, spmd_axis_name=(DP, 'fsdp'))(xs), np.asarray(xs) - 1.0
