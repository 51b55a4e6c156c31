import jax
import jax.numpy as jnp
from common2 import *


def f(x):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P("data"), out_specs=P("data"))(x)


print(jax.vmap(f, spmd_axis_name="data")(jnp.ones((4, 8))).sum())
