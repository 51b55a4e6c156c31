import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.meshes import mesh
from pkg.ops import block


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P('x')))
    result = jax.vmap(apply)(xs, ws)
    return result, (xs0 * 2.0 + 1.0) * ws0[:, None]
