"""A slice size computed from shapes is a Python int under tracing: the body may close over it.

`n` is not batched by the spmd vmap (it is static), so it is no capture; passing it in as an operand would make
it a tracer and `dynamic_slice_in_dim` would raise under jax.jit (measured on jax 0.10.2).
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def first_blocks(x):
    n = x.shape[0] // mesh.shape['y']
    half = n // 2
    return jax.shard_map(
        lambda t: jax.lax.dynamic_slice_in_dim(t, 0 * n, half) * 2.0,
        mesh=mesh,
        in_specs=P('y'),
        out_specs=P('y'),
    )(x)


def main():
    xs = jnp.arange(4 * 16, dtype=jnp.float32).reshape(4, 16)
    result = jax.jit(jax.vmap(first_blocks, spmd_axis_name='x'))(xs)
    a = np.asarray(xs).reshape(4, 4, 4)
    reference = (a[:, :, :2] * 2.0).reshape(4, 8)
    return result, reference
