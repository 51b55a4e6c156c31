import jax, jax.numpy as jnp, numpy as np
from ens.config import CFG
from ens.layers import col_dense


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8) / 64
    w = jnp.eye(8) * 2.0
    out = jax.vmap(col_dense, in_axes=(0, None), spmd_axis_name=CFG.data)(xs, w)
    return out, np.stack([np.asarray(col_dense(xs[i], w)) for i in range(4)])
