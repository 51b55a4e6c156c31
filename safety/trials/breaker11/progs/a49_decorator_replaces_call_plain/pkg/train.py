import jax

from pkg.model import apply


def step(xs):
    return jax.vmap(apply, spmd_axis_name='x')(xs)
