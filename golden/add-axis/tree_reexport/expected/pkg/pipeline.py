import jax

from pkg import block


def forward(xs):
    return jax.vmap(block, spmd_axis_name='batch')(xs)
