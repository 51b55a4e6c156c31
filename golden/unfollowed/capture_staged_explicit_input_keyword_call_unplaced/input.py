"""A shard_map body closing over `w`, a value the spmd vmap batches, applied in a `@jax.jit` function on an
Explicit mesh, the batch not placed on the spmd axis; `w` reaches the jit function as a keyword argument
(`block(x, w=v)`), which spmdfix does not trace back to the vmap's arguments. Its input is a numpy array, not
placed on the mesh, so this runs and matches (safety/measurements/capture_staged_explicit_placement.py);
committed to the mesh off the spmd axis it would fail. spmdfix cannot tell which: an SPMD910 record at the
capture, never silence."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'))


@jax.jit
def block(x, w):
    def body(b):
        return (b * 2.0 + 1.0) * w
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


def apply(x, v):
    return block(x, w=v)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, None)))
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(xs, ws0)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
