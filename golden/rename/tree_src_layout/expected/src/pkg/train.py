import jax

from pkg import config
from pkg.model import forward


def batched(x, w):
    return jax.vmap(forward, in_axes=(0, None), spmd_axis_name=config.SPARE)(x, w)
