import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

AXES = ("x", "y")
DATA = 0
mesh = Mesh(np.array(jax.devices()).reshape(2, 4), AXES)


def block(v):
    return jax.shard_map(lambda b: b + 1.0, mesh=mesh, in_specs=P(AXES[DATA]), out_specs=P(AXES[DATA]))(v)


def main():
    x = jnp.arange(64.0).reshape(8, 8)
    result = jax.vmap(block, spmd_axis_name="y")(x)
    reference = x + 1.0
    return result, reference
