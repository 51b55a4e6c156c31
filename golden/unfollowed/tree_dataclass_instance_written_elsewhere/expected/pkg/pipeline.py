import jax

from pkg.config import CFG
from pkg.layers import layer


def forward(xs):
    return jax.vmap(layer, spmd_axis_name=CFG.batch_axis)(xs)
