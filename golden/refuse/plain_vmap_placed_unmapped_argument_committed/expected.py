"""A plain jax.vmap over a batch placed on the Explicit axis 'x' (device_put), with an argument it does not map
(`in_axes=None`) committed to the mesh with `P()`; the shard_map body (in_specs=P()) closes over it. JAX fails
(`For primitive mul, context mesh ... should match the aval mesh`; safety/measurements/plain_vmap_placed_spellings.py, part 1), unplaced it runs: SPMD003.
Lifting `w` is unsafe (its lifted `P()` operand fails when the argument is placed `P('y')`): nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P()))
    result = jax.vmap(block, in_axes=(0, None))(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[None, :]
