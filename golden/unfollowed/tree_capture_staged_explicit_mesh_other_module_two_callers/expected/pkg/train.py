import jax

from pkg.model import block


def apply(x, w):
    return block(x, w)


def forward(xs, ws):
    return jax.vmap(apply, spmd_axis_name='data')(xs, ws)
