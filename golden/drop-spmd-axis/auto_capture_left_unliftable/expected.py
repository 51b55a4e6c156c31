"""A spec collision and, in the same shard_map, a capture of a batched value that lift-captures cannot edit
(the body has a parameter with a default): fixing the collision alone leaves the capture, and the program
still fails (with a ManualAxisType assertion)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def shift(w, s):
    return jax.shard_map(lambda b, k=1.0: b + w * k, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(s)


def main():
    ws = jnp.arange(4, dtype=jnp.float32)
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(shift)(ws, ss)
    reference = np.asarray(ss) + np.asarray(ws)[:, None]
    return result, reference
