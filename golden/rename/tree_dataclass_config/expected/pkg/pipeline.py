import jax

from pkg.config import Config
from pkg.layers import layer

cfg = Config()


def forward(xs):
    return jax.vmap(layer, spmd_axis_name="y")(xs)
