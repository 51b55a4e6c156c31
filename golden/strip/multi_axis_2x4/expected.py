"""2-D examples split over both mesh axes; the batch is mapped onto "x"."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ("x", "y"))


def activation(v):
    return jnp.tanh(v) * 0.5 + jnp.exp(-jnp.abs(v))


def block(x):
    return jax.shard_map(
        activation,
        mesh=mesh,
        in_specs=P(None, "y"),
        out_specs=P(None, "y"),
    )(x)


def main():
    xs = jnp.linspace(-2.0, 2.0, 4 * 4 * 8, dtype=jnp.float32).reshape(4, 4, 8)
    result = jax.vmap(block, spmd_axis_name="x")(xs)
    reference = jax.vmap(activation)(xs)
    return result, reference
