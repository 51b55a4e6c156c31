import jax

import pkg.config as config
from pkg import layers


def batched(x, w):
    return jax.vmap(layers.forward, in_axes=(0, None), spmd_axis_name=config.SPARE)(x, w)
