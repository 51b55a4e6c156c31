"""Original: Explicit jax.make_mesh((2, 2, 2)), in/out P('x'), spmd 'x' (raises); input placed P(None, 'x').
Applied: rename spmd_axis_name 'x' -> 'y' (same size), called eagerly instead of under jax.jit."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 2, 2), ('x', 'y', 'z'))


def body(v):
    return v * v - 1.0


def run(x):
    return jax.vmap(
        lambda r: jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(r),
        spmd_axis_name='y',
    )(x)


def main():
    x = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    x = jax.device_put(x, NamedSharding(mesh, P(None, 'x')))
    result = run(x)
    reference = np.asarray(x) ** 2 - 1.0
    return result, reference
