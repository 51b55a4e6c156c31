from functools import partial

import jax

from .losses import loss


def run(fn, vec, w, xs):
    return vec(jax.grad(fn))(w, xs)


def per_example_grads(w, xs):
    return run(loss, partial(jax.vmap, in_axes=(None, 0), spmd_axis_name='data'), w, xs)
