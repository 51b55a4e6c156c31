import jax

from pkg.config import DATA
from pkg.model import block


def forward(xs):
    return jax.jit(jax.vmap(block, spmd_axis_name=DATA))(xs)
