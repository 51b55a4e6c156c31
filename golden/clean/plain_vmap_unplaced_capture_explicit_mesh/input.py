"""A plain jax.vmap whose batch is placed on no mesh axis, on an Explicit mesh, reaches a shard_map with
all-replicated specs whose body closes over `w`, a batched value: JAX runs it and matches
(safety/measurements/capture_plain_vmap_placed.py), so no SPMD003."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * w, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    result = jax.vmap(block, in_axes=(0, 0))(jnp.asarray(xs0), jnp.asarray(ws0))
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
