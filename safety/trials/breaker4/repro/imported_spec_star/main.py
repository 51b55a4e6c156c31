import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

from config import ACT_SPEC

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def body(h):
    return jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P(*ACT_SPEC))) * 2.0


jax.vmap(body, spmd_axis_name="data")(jnp.ones((4, 8, 16)))
