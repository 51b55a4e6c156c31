import functools

import jax

from pkg.model import block


@functools.partial(jax.vmap, in_axes=(0, 0), spmd_axis_name="batch")
def apply(x, w):
    return block(x, w)
