"""Issue 22 (silence5): refuse/capture_default_jit_block_explicit_input_off_spmd with the batch placed `P(None, None)`
(its block not placed on `'x'`, which the in_specs name): JAX raises `in_specs passed to shard_map: P('x',) does not
match the specs of the input` before the closure's `Closing over inputs to shard_map`, eager and under jit, any
check_vma (safety/measurements/capture_staged_explicit_placement.py, placement `replicated`); SPMD003's message
says so."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    def body(b, w=w):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(x)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
