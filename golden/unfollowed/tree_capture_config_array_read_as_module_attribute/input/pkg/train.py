import jax

from pkg.config import DATA
from pkg.model import block


def apply(x, w):
    return block(x, w)


def forward(xs, w):
    return jax.jit(jax.vmap(apply, in_axes=(0, None), spmd_axis_name=DATA))(xs, w)
