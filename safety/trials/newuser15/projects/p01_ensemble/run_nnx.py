import jax, jax.numpy as jnp, numpy as np
from flax import nnx
from ens.config import CFG
from ens.model import Block


@nnx.vmap(in_axes=(0, None), spmd_axis_name=CFG.data)
def forward(block, x):
    return block(x)


def main():
    @nnx.vmap(in_axes=0, out_axes=0)
    def make(key):
        return Block(8, 8, rngs=nnx.Rngs(params=key))
    blocks = make(jax.random.split(jax.random.key(1), 2))
    x = jnp.arange(64, dtype=jnp.float32).reshape(8, 8) / 64
    out = forward(blocks, x)
    w = np.asarray(blocks.w[...])
    ref = np.stack([np.tanh(np.asarray(x) @ w[i]) for i in range(2)])
    return out, ref
