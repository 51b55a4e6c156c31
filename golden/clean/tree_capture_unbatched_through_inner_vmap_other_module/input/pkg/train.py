import jax

from pkg.model import block


def apply(x, w):
    return jax.vmap(block, in_axes=(0, None))(x, w)


def forward(xs, w):
    # `w` is mapped by neither vmap: the body's capture of `s = w * 2.0` holds no batched value
    return jax.vmap(apply, in_axes=(0, None), spmd_axis_name='data')(xs, w)
