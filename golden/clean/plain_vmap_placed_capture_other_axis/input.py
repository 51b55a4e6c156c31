"""A plain jax.vmap whose batch is placed on the Explicit axis 'x' (jax.device_put) reaches a shard_map whose
in_specs name another axis ('y') with check_vma on, its body closing over `w`, a batched value placed on the
batch axis only: JAX runs it and matches (safety/measurements/capture_plain_vmap_placed.py; a default-bound or
partial-bound `w` runs too), so no SPMD003."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x')))
    result = jax.vmap(block, in_axes=(0, 0))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
