import jax

from pkg import blk
from pkg.config import DATA


def step(w, xs):
    return jax.vmap(blk, in_axes=(None, 0), spmd_axis_name="batch")(w, xs)
