import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("data", "model"))

act = jax.shard_map(lambda b: jnp.exp(b) - 1.0, mesh=mesh, in_specs=P("data", "model"), out_specs=P("data", "model"))


def step(x):
    return act(x)
