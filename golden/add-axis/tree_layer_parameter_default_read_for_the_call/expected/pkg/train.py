import jax

from .config import DATA
from .layers import block


def forward(xs):
    return jax.vmap(block, spmd_axis_name="batch")(xs)
