import jax

from ns.a import config
from ns.a.layers import forward


def batched(x, w):
    return jax.vmap(forward, in_axes=(0, None), spmd_axis_name=config.SPARE)(x, w)
