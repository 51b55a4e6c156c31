"""The shard_map body is a nested def that closes over `scale`, a local computed from a vmapped parameter."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def scale_rows(w, s):
    scale = jnp.exp(w)

    def body(b):
        return b * scale

    return jax.shard_map(body, mesh=mesh, in_specs=(P('y'),), out_specs=P('y'))(s)


def main():
    ws = jnp.linspace(-1.0, 1.0, 4, dtype=jnp.float32)
    ss = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(scale_rows, spmd_axis_name='x')(ws, ss)
    reference = np.asarray(ss) * np.exp(np.asarray(ws))[:, None]
    return result, reference
