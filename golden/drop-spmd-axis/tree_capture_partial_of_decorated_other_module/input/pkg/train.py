import functools

import jax

from pkg import model


def apply(xs, w):
    # `swapped` hands the vmapped `xs` to block's `w`: the body closes over the batched value
    return jax.vmap(functools.partial(model.block, w), spmd_axis_name='x')(xs)
