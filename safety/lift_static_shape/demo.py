"""Original: golden/clean/static_shape_capture_jit (a body closing over `n = x.shape[0] // mesh.shape['y']`).
Applied anyway: lift-captures of `n` and `half` (extra operands with `P()`): they become tracers, and the static
slice size of `dynamic_slice_in_dim` raises under jax.jit."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def first_blocks(x):
    n = x.shape[0] // mesh.shape['y']
    half = n // 2
    return jax.shard_map(
        lambda t, n, half: jax.lax.dynamic_slice_in_dim(t, 0 * n, half) * 2.0,
        mesh=mesh,
        in_specs=(P('y'), P(), P()),
        out_specs=P('y'),
    )(x, n, half)


def main():
    xs = jnp.arange(4 * 16, dtype=jnp.float32).reshape(4, 16)
    result = jax.jit(jax.vmap(first_blocks, spmd_axis_name='x'))(xs)
    a = np.asarray(xs).reshape(4, 4, 4)
    reference = (a[:, :, :2] * 2.0).reshape(4, 8)
    return result, reference
