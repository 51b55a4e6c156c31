"""Original on an Explicit mesh (jax.make_mesh default): in/out P('x'); the caller places its input for that spec.
Applied anyway: strip -> P(None). The placed input no longer matches the in_specs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def body(v):
    return v * 2.0 + 1.0


def layer(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(None), out_specs=P(None))(x)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    placed = jax.device_put(xs, NamedSharding(mesh, P(None, 'x')))  # placement for the old P('x')
    result = jax.vmap(layer, spmd_axis_name='x')(placed)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
