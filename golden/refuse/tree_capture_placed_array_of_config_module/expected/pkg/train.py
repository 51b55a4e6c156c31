import jax
from jax.sharding import NamedSharding, PartitionSpec as P

from pkg.config import mesh
from pkg.model import block


def forward(X):
    xs = jax.device_put(X, NamedSharding(mesh, P('data', None)))
    return jax.vmap(block)(xs)
