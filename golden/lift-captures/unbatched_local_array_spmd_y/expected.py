"""A local array that does not depend on the vmapped argument, closed over by an all-replicated body; the spmd
axis 'y' is not named by any spec."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def weigh(a):
    w = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)

    def body(b, w):
        return jnp.tanh(b) * w + 1.0

    return jax.shard_map(body, mesh=mesh, in_specs=(P(), P()), out_specs=P())(a, w)


def main():
    xs = np.linspace(-2, 2, 32, dtype=np.float32).reshape(4, 8)
    result = jax.vmap(weigh, spmd_axis_name='y')(xs)
    reference = np.tanh(xs) * np.linspace(0.5, 1.5, 8, dtype=np.float32) + 1.0
    return result, reference
