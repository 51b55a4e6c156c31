"""Fuzz seed 310000's form: a plain jax.vmap over an input placed on the Explicit mesh at its example dimension
only (`P(None, 'x')`), with an argument it does not map (`in_axes=None`) committed to the mesh with `P()`; the
shard_map body (in_specs=P('x')) closes over it. JAX refuses it (`Closing over inputs to shard_map where the input
is sharded on Explicit axes`; safety/measurements/plain_vmap_placed_spellings.py, part 5), unplaced it runs:
SPMD003. Lifting `w` is unsafe (not measured for this placement): nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'x')))
    ws = jax.device_put(jnp.asarray(np.float32(1.5)), NamedSharding(mesh, P()))
    result = jax.vmap(block, in_axes=(0, None))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * 1.5
