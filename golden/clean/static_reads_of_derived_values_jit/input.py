"""Slice sizes read from arrays built from the batch (`x[0:8].shape`, `(x * 2).shape`, `x.T.shape`, `jnp.shape`,
`np.size`, `len(x[1:])`) are Python ints under tracing: the body may close over them (no SPMD003), and lifting
them as operands would make them tracers that `dynamic_slice_in_dim` rejects under jax.jit (measured on jax 0.10.2).
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def first_blocks(x):
    k = x[0:8].shape[0] // mesh.shape['y'] + (x * 2).shape[0] // 32
    m = x.T.shape[0] // jnp.shape(x)[0] + np.size(x) // len(x[1:]) - 1
    return jax.shard_map(
        lambda t: jax.lax.dynamic_slice_in_dim(t, 0, k + m - 1) * 2.0,
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
