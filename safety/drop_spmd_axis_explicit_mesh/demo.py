"""Original: a vmap with spmd_axis_name='x' reaching a shard_map with P('x') on an Explicit mesh
(`jax.make_mesh` default). Applied anyway: drop-spmd-axis (a plain vmap): JAX still rejects the specs, eager
and under jit."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def step(v):
    return jax.shard_map(lambda t: t * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(jax.vmap(step))(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
