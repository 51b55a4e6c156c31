import jax

from .model import block


def forward(xs):
    return jax.vmap(block, spmd_axis_name="data")(xs)
