import jax
import pydoc
from pkg.config import MESH


def colsum(x):
    spec = pydoc.locate('pkg.model.ROWS')
    return jax.shard_map(lambda b: b.sum(0, keepdims=True), mesh=MESH, in_specs=spec, out_specs=spec)(x)
