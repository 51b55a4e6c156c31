import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import mesh
from pkg.model import block


def apply(x, w):
    return block(x, w)


def forward(X, W):
    xs = jax.device_put(X, NamedSharding(mesh, P('model', 'data', None)))
    ws = jax.device_put(W, NamedSharding(mesh, P('model')))
    return jax.jit(jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='model'))(xs, ws)
