import jax
import pkg
from pkg.config import MESH


def colsum(x):
    spec = pkg.ROWS
    return jax.shard_map(lambda b: b.sum(0, keepdims=True), mesh=MESH, in_specs=spec, out_specs=spec)(x)
