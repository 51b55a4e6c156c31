import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))


def data_parallel(fn):
    return jax.shard_map(fn, mesh=MESH, in_specs=P("data"), out_specs=P("data"))


@data_parallel
def softplus(x):
    return jnp.logaddexp(x, 0.0)


out = jax.vmap(softplus, spmd_axis_name="data")(jnp.ones((4, 8)))
