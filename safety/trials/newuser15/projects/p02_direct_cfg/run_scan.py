import jax, jax.numpy as jnp, numpy as np
from ens.config import CFG
from ens.train import scan_layers


def main():
    ws = jax.random.normal(jax.random.key(2), (2, 3, 8, 8)) * 0.3   # 2 members, 3 layers
    x = jnp.arange(64, dtype=jnp.float32).reshape(8, 8) / 64
    out = jax.vmap(scan_layers, in_axes=(0, None), spmd_axis_name=CFG.data)(ws, x)
    return out, np.stack([np.asarray(scan_layers(ws[i], x)) for i in range(2)])
