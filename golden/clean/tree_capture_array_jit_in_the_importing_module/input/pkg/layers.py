import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def body(b):
    return b * W


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)
