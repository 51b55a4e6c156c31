import jax

from pkg.factory import make

step = make()


def forward(xs):
    return jax.vmap(step, spmd_axis_name='data')(xs)
