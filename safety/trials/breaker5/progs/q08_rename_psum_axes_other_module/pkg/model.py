import jax
import jax.numpy as jnp
from jax.sharding import AxisType, PartitionSpec as P

from pkg import axes

mesh = jax.make_mesh((2, 2, 2), ("data", "fsdp", "model"), axis_types=(AxisType.Auto,) * 3)
N_AXES = len(mesh.axis_names)


def body(b):
    return jax.lax.psum(jnp.tanh(b), axes.REDUCE_AXES)


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P((axes.DATA, axes.MODEL)), out_specs=P((axes.DATA, axes.MODEL)))(x)
