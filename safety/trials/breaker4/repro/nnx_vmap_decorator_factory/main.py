import jax
import jax.numpy as jnp
from flax import nnx
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ("ens", "model"), axis_types=(jax.sharding.AxisType.Auto,) * 2)


def sharded_relu(x):
    return jax.shard_map(jax.nn.relu, mesh=mesh, in_specs=P("ens"), out_specs=P("ens"))(x)


@nnx.vmap(in_axes=0, out_axes=0, spmd_axis_name="ens")
def fwd(x):
    return sharded_relu(x)


fwd(jnp.ones((4, 8)))
