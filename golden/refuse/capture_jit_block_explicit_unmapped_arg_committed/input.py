"""A shard_map body closing over `s = w`, where `w` is an argument the spmd vmap does not map (`in_axes=None`),
applied in a `@jax.jit` function on an Explicit mesh while the batch is not placed on the spmd axis, and a call
commits `w` to the mesh (`P()`): JAX refuses it, `Closing over inputs to shard_map where the input is sharded on
Explicit axes`, eager and under jit, any check_vma (safety/measurements/capture_staged_explicit_unbatched_arg.py):
SPMD003. lift-captures is unsafe (not measured through every staging function)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    s = w
    def body(b):
        return (b * 2.0 + 1.0) * s
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P()))
    result = jax.vmap(apply, in_axes=(0, None), spmd_axis_name='x')(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[None, :]
