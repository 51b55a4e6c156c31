import functools

import jax

from pkg.config import DATA
from pkg import model


def apply(xs, w):
    # `w` and `scale` are bound by the partial: the vmapped callable closes over them, the vmap maps `xs` only
    fn = functools.partial(model.block, w, scale=0.5)
    return jax.vmap(fn, spmd_axis_name=DATA)(xs)


def apply_inline(xs, w):
    return jax.vmap(functools.partial(model.block, w, scale=0.5), spmd_axis_name=DATA)(xs)
