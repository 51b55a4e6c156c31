import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.model import block, mesh

XS = (np.arange(8 * 8 * 8, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
WS = np.linspace(0.5, 2.0, 8, dtype=np.float32)


@jax.jit
@functools.partial(jax.vmap, in_axes=(0, 0))
def apply(x, w):
    return block(x, w, ('x', 'y'))


def forward():
    xs = jax.device_put(jnp.asarray(XS), NamedSharding(mesh, P(None, ('x', 'y'), None)))
    ws = jax.device_put(jnp.asarray(WS), NamedSharding(mesh, P(None)))
    return apply(xs, ws)
