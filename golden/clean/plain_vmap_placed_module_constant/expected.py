"""A plain jax.vmap whose batch is placed on the Explicit axis 'x' (jax.device_put) reaches a shard_map with
all-replicated specs whose body closes over a module constant array the vmap does not batch: JAX runs it and
matches (safety/measurements/capture_plain_vmap_placed.py), so no SPMD003."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
SCALE = np.linspace(0.5, 1.5, 8, dtype=np.float32)


def block(x):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * SCALE, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    result = jax.vmap(block)(xs)
    return result, (xs0 * 2.0 + 1.0) * SCALE[None, :]
