"""A plain jax.vmap over a batch placed on the Explicit axis 'x' (`P('x', 'y')`), with an argument it does not map
(`in_axes=None`) committed to the mesh with `P(None)`; the shard_map body (in_specs=P('y'), check_vma on) closes
over `h = w[:2]`. It runs and matches (safety/measurements/plain_vmap_placed_spellings.py, part 1: check_vma=True
with in_specs naming another axis, the argument placed on no mesh axis): clean."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    h = w[:2]

    def body(b):
        return (b * 2.0 + 1.0) * h
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', 'y')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.vmap(block, in_axes=(0, None))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * np.tile(ws0[:2], 4)[None, :]
