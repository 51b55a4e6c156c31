"""Issue 22 (left open by fuzz seed 110652's fix): `jax.lax.map(block, x, batch_size=3)` (a remainder) between the
spmd vmap and a check_vma=True shard_map whose body multiplies its block by module-level constant matrices:
`b @ M`, `jnp.dot(b, J)`, `jnp.einsum('i,ij->j', ..., A)`, `jnp.matmul(..., M)`, and a unary `jnp.tanh`. A
product with a constant the body closes over runs under lax.map's vmap over chunks (and an inner `jax.vmap`)
like a unary step (measured on jax 0.10.2, eager and jit, with `np.linspace(...).reshape`, an `np.array` literal
and `jnp.ones`, specs `P()` and `P('y')`: safety/measurements/spmd007_body_collectives_constants.py); `b * W` with a
captured vector does not. No SPMD007, and no SPMD003: module constants are not batched (and the specs name a mesh
axis)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P


mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
M = np.linspace(0.5, 2.0, 4, dtype=np.float32).reshape(2, 2)
A = np.array([[1.0, 0.5], [0.0, 1.0]], dtype=np.float32)
J = jnp.ones((2, 2), dtype=jnp.float32) * 0.5


def body(b):
    h = jnp.tanh(b @ M)
    h = jnp.dot(h, J)
    h = jnp.einsum('i,ij->j', h, A)
    return jnp.matmul(h, M)


def block(row):
    return jax.shard_map(body, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(row)


def apply(x):
    return jax.lax.map(block, x, batch_size=3)


def main():
    xs = (np.arange(8 * 4 * 8, dtype=np.float32).reshape(8, 4, 8) + 3.0) / 80.0
    result = jax.vmap(apply, spmd_axis_name='x')(xs)
    blocks = xs.reshape(8, 4, 4, 2)  # each row split 4 ways over 'y'
    h = np.tanh(blocks @ M) @ (np.ones((2, 2), dtype=np.float32) * 0.5)
    return result, ((h @ A) @ M).reshape(8, 4, 8)
