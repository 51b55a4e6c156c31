"""Original: 2x4 mesh, shard_map in/out P('x'), then jax.jit(..., out_shardings=NamedSharding(mesh, P(None, 'y')))
inside the vmapped function, spmd 'x' (raises the in_specs error).
Applied: rename spmd_axis_name 'x' -> 'y', the axis the inner jit's out_shardings names: JAX prepends the spmd
axis to that sharding, P('y', None, 'y') (safety/measurements/rename_reached_shardings.py)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def forward(v):
    h = jax.shard_map(lambda b: b * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)
    return jax.jit(lambda t: t * 3.0, out_shardings=NamedSharding(mesh, P(None, 'y')))(h)


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    result = jax.vmap(forward, spmd_axis_name='y')(xs)
    reference = (np.asarray(xs) * 2.0 + 1.0) * 3.0
    return result, reference
