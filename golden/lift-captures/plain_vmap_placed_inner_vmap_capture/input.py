"""A plain jax.vmap over a batch placed on the Explicit axis 'x', an inner jax.vmap (in_axes=(0, None)) in its
function before the shard_map, whose body (in_specs=P()) closes over `w` (batched by the outer vmap). JAX fails as
without the inner vmap (`For primitive mul, context mesh ...`; safety/measurements/plain_vmap_placed_spellings.py, part 3): SPMD003. The lifted operand runs
through the inner vmap (part 3, `lifted`)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, None))(x, w)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(8, 4, 8) - 90.0) / 64.0
    ws0 = np.linspace(0.5, 2.0, 64, dtype=np.float32).reshape(8, 8)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None, None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x', None)))
    result = jax.vmap(apply)(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None, :]
