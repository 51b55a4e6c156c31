"""A plain jax.vmap over a batch placed on the Explicit axis 'x' (`P('x', None, 'y')`), an inner jax.vmap in its
function mapping `x` and `w` before a shard_map (in_specs=P('y'), check_vma on) whose body closes over `w`. It runs
and matches, as without the inner vmap (safety/measurements/plain_vmap_placed_spellings.py, part 3): clean."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, 0))(x, w)


def main():
    xs0 = (np.arange(256, dtype=np.float32).reshape(8, 4, 8) - 90.0) / 64.0
    ws0 = np.linspace(0.5, 2.0, 32, dtype=np.float32).reshape(8, 4)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None, 'y')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x', None)))
    result = jax.vmap(apply)(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, :, None]
