import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

from pkg.model import block, mesh

XS = (np.arange(4 * 4 * 8, dtype=np.float32).reshape(4, 4, 8) - 50.0) / 64.0
WS = np.arange(4, dtype=np.float32) / 4.0 + 0.5


def apply(x, w):
    return block(x, w)


def forward():
    xs = jnp.asarray(XS)
    ws = jnp.asarray(WS)
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(xs, P('data', None, None))
        ws = jax.sharding.reshard(ws, P('data'))
        return jax.vmap(apply, spmd_axis_name='data')(xs, ws)
