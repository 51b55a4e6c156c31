import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH
from pkg.model import accumulate, block

SPEC = P(None, 'y')
exec("SPEC = P('x', None)")


def step(xs):
    with jax.set_mesh(MESH):
        xs = jax.sharding.reshard(xs, SPEC)
        return accumulate(block, xs)
