import jax
import jax.numpy as jnp
from jax.sharding import PartitionSpec as P

from ens.config import DATA, MODEL
from ens.mesh import MESH


def _dense(x, w):
    return jnp.tanh(x @ w)


def sharded_dense(x, w):
    """x: [tokens, hidden] sharded over data, w: [hidden, hidden] sharded over model columns."""
    return jax.shard_map(_dense, mesh=MESH, in_specs=(P(DATA, None), P(None, MODEL)),
                         out_specs=P(DATA, MODEL))(x, w)


def forward(params, x):
    h = sharded_dense(x, params["w1"])
    return sharded_dense(h, params["w2"]).sum()
