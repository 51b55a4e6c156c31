"""A per-example offset `w` is closed over by the shard_map body (a lambda) instead of being passed in."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def shift(w, s):
    return jax.shard_map(lambda b, w: b + w, mesh=mesh, in_specs=(P('y'), P()), out_specs=P('y'))(s, w)


def main():
    ws = jnp.arange(4, dtype=jnp.float32)
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(shift, spmd_axis_name='x')(ws, ss)
    reference = np.asarray(ss) + np.asarray(ws)[:, None]
    return result, reference
