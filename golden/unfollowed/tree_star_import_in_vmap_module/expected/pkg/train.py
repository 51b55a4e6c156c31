import jax

from pkg import *  # noqa: F403
from pkg.config import DATA


def step(w, xs):
    return jax.vmap(block, in_axes=(None, 0), spmd_axis_name=DATA)(w, xs)  # noqa: F405
