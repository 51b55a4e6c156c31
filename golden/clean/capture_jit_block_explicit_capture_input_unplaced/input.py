"""The clean look-alike of refuse/capture_jit_block_explicit_input_off_spmd: the captured `w`'s input is not
placed on the Explicit mesh (a numpy array) while the batch is placed `P(None, 'y')` as the specs `P('y')` ask:
reached through the `@jax.jit` function the capture becomes a jit operand and runs and matches, eager and
under jit, any check_vma (safety/measurements/capture_staged_explicit_placement.py): no SPMD003."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(x)


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, 'y')))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(xs, ws0)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
