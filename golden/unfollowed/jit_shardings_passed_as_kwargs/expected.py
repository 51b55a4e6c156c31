"""A jax.jit inside the vmapped function takes its shardings from `**JIT_KW`, whose `out_shardings` name the spmd
axis: JAX raises DuplicateSpecError; spmdfix does not read what a `**` argument gives the jit (main said
"No errors found" with no record)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('data', 'model'), axis_types=(AxisType.Auto,) * 2)
JIT_KW = dict(out_shardings=NamedSharding(MESH, P('data', None)))


def step(x):
    return jax.jit(lambda v: v * 2.0, **JIT_KW)(x)


def main():
    xs = jnp.arange(2 * 8 * 4, dtype=jnp.float32).reshape(2, 8, 4)
    result = jax.vmap(step, spmd_axis_name='data')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
