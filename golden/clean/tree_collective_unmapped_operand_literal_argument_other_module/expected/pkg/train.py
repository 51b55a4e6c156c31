import jax

from pkg.model import block


def apply(x, w):
    return block(x, w, 'x')


def step(xs, w):
    return jax.vmap(apply, in_axes=(0, None), spmd_axis_name='y')(xs, w)
