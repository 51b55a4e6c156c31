import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import mesh
from pkg.model import block


def apply(x, w):
    return jax.vmap(block, in_axes=(0, None))(x, w)


def forward(X, w):
    xs = jax.device_put(X, NamedSharding(mesh, P(None, 'data', None)))
    return jax.jit(jax.vmap(apply, in_axes=(0, None), spmd_axis_name='model'))(xs, w)
