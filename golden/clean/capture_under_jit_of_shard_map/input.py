"""The shard_map is wrapped in jax.jit where it is applied: what its body closes over becomes an operand of
the compiled call, not a batched tracer. Measured on jax 0.10.2: runs and matches (the same closure without
the jit fails with an internal AssertionError)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def shift(w, s):
    return jax.jit(jax.shard_map(lambda b: b + w, mesh=mesh, in_specs=P('y'), out_specs=P('y')))(s)


def main():
    ws = jnp.arange(4, dtype=jnp.float32)
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(shift, spmd_axis_name='x')(ws, ss)
    reference = np.asarray(ss) + np.asarray(ws)[:, None]
    return result, reference
