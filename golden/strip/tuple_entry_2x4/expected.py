"""One dimension split over both mesh axes at once."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def gate(v):
    return jnp.maximum(v, 0.0) * jax.nn.sigmoid(v)


def gated(x):
    return jax.shard_map(gate, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs = jnp.linspace(-3.0, 3.0, 8 * 16, dtype=jnp.float32).reshape(8, 16)
    result = jax.vmap(gated, spmd_axis_name='x')(xs)
    reference = jax.vmap(gate)(xs)
    return result, reference
