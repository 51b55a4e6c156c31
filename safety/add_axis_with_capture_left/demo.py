"""Original: golden/drop-spmd-axis/auto_capture_left_unliftable (formerly refuse/add_axis_with_capture_left) (a spec collision and an unliftable capture of a batched
value in one shard_map). Applied anyway: add-axis alone: the collision is gone, the capture still fails."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('batch', 'x', 'y'))


def shift(w, s):
    return jax.shard_map(lambda b, k=1.0: b + w * k, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(s)


def main():
    ws = jnp.arange(4, dtype=jnp.float32)
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(shift, spmd_axis_name='batch')(ws, ss)
    reference = np.asarray(ss) + np.asarray(ws)[:, None]
    return result, reference
