import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from pkg.config import MESH, MODEL


def tp_matmul(x, w):
    def body(xb, wb):
        return jax.lax.psum(xb @ wb, MODEL)
    return jax.shard_map(body, mesh=MESH, in_specs=(P(None, MODEL), P(MODEL, None)), out_specs=P(),
                         axis_names={MODEL})(x, w)
