import jax

from pkg.layers import layer


def forward(xs):
    return jax.vmap(layer, spmd_axis_name="batch")(xs)
