"""The closure is created inside a function that is itself jax.jit-compiled under the spmd vmap.

Measured on jax 0.10.2: the captured value is then a jit operand, not a batched value, and the program runs
correctly (the same closure without the inner jit fails with an internal AssertionError).
"""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@jax.jit
def shift(w, s):
    return jax.shard_map(lambda b: b + w, mesh=mesh, in_specs=P('y'), out_specs=P('y'))(s)


def main():
    ws = jnp.arange(4, dtype=jnp.float32)
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(shift, spmd_axis_name='x')(ws, ss)
    reference = np.asarray(ss) + np.asarray(ws)[:, None]
    return result, reference
