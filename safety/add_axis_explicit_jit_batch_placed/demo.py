"""Original: mesh = jax.make_mesh((2, 4), ('x', 'y')) (Explicit), in/out P('x'), spmd 'x', called under jax.jit
with the input's batch dimension placed on 'y' (P('y', 'x')). Applied: add-axis -> make_mesh((1, 2, 4),
('batch', 'x', 'y')), spmd_axis_name='batch'. JAX rejects an spmd_axis_name together with a batch dimension
placed on an Explicit axis, so the jitted call raises."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 2, 4), ('batch', 'x', 'y'))


def layer(x):
    return jax.shard_map(lambda v: v * 2.0 + 1.0, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


run = jax.jit(jax.vmap(layer, spmd_axis_name='batch'))


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    placed = jax.device_put(xs, NamedSharding(mesh, P('y', 'x')))  # the caller's placement, unchanged
    return run(placed), np.asarray(xs) * 2.0 + 1.0
