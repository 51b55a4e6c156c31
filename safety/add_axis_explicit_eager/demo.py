"""Original: mesh = jax.make_mesh((2, 4), ('x', 'y')) (Explicit), in/out P('x'), spmd 'x'; callers place inputs as
P(None, 'x'). Applied: add-axis -> make_mesh((1, 2, 4), ('batch', 'x', 'y')), spmd_axis_name='batch'.
The eager call with the input placed for the old specs fails."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((1, 2, 4), ('batch', 'x', 'y'))


def body(v):
    return v * 2.0 + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    placed = jax.device_put(xs, NamedSharding(mesh, P(None, 'x')))  # the caller's placement, unchanged
    result = jax.vmap(layer, spmd_axis_name='batch')(placed)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
