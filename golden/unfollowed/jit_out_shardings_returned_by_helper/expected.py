"""A jax.jit inside the vmapped function takes `out_shardings=sharded()`, a helper returning a NamedSharding
that names the spmd axis: JAX prepends the spmd axis and raises DuplicateSpecError; spmdfix does not read what
the helper returns (main said "No errors found" with no record)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)


def sharded():
    return NamedSharding(MESH, P('data', None))


def step(x):
    return jax.jit(lambda v: v * 2.0, out_shardings=sharded())(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    result = jax.vmap(step, spmd_axis_name='data')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
