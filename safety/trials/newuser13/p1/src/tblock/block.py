"""A transformer MLP block whose hidden layer is sharded over the model axis by hand."""
from functools import partial

import jax
import jax.numpy as jnp
from flax import nnx
from jax.sharding import PartitionSpec as P

from .config import CFG, DATA, MODEL, make_mesh

MESH = make_mesh()


@partial(jax.shard_map, mesh=MESH, in_specs=(P(DATA, None), P(None, MODEL), P(MODEL, None)),
         out_specs=P(DATA, None))
def sharded_mlp(x, w_in, w_out):
    h = jax.nn.gelu(x @ w_in)
    return jax.lax.psum(h @ w_out, MODEL)


class MLPBlock(nnx.Module):
    def __init__(self, cfg, rngs):
        self.ln = nnx.LayerNorm(cfg.d_model, rngs=rngs)
        self.w_in = nnx.Param(jax.random.normal(rngs.params(), (cfg.d_model, cfg.d_ff)) * 0.1)
        self.w_out = nnx.Param(jax.random.normal(rngs.params(), (cfg.d_ff, cfg.d_model)) * 0.1)

    def __call__(self, x):
        return x + sharded_mlp(self.ln(x), self.w_in[...], self.w_out[...])


def build(seed=0):
    return MLPBlock(CFG, nnx.Rngs(seed))
