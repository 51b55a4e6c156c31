import jax
from jax.sharding import PartitionSpec as P

from pkg.config import MESH


def _apply(self, v):
    return jax.shard_map(lambda b: b * 2.0, mesh=MESH, in_specs=P('x'), out_specs=P('x'))(v)


class Layer:
    __call__ = _apply


def apply(v):
    return Layer()(v)
