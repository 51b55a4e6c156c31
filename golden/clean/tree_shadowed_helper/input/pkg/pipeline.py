import jax

from .layers import block  # noqa: F401 - shadowed below on purpose


def block(x):  # noqa: F811
    return x * 2.0


def forward(xs):
    return jax.vmap(block, spmd_axis_name='data')(xs)
