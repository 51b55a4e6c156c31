"""Issue 22 kind 9 under a plain vmap: the shard_map body closes over `W`, a module-level array placed on the
Explicit mesh with `jax.device_put(..., NamedSharding(mesh, P('x')))`, while the plain vmap's batch is placed on
'x'. JAX fails (`For primitive mul, context mesh ...`; safety/measurements/plain_vmap_placed_spellings.py, part 2), whatever W's spec and check_vma: SPMD003.
Lifting a placed array is not measured: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))
W0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
W = jax.device_put(jnp.asarray(W0), NamedSharding(mesh, P('x')))


def block(x):
    return jax.shard_map(lambda b: (b * 2.0 + 1.0) * W, mesh=mesh, in_specs=P(), out_specs=P())(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    result = jax.vmap(block)(xs)
    return result, (xs0 * 2.0 + 1.0) * W0[None, :]
