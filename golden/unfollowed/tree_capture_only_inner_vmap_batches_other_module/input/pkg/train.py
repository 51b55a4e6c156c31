import jax

from pkg.model import block


def apply(x, w):
    # the inner vmap maps `w`, which the spmd vmap does not
    return jax.vmap(block, in_axes=(0, 0))(x, w)


def forward(xs, w):
    return jax.vmap(apply, in_axes=(0, None), spmd_axis_name='data')(xs, w)
