import importlib

import jax

layers = importlib.import_module("pkg." + "layers")


def forward(xs):
    return jax.vmap(layers.block, spmd_axis_name='data')(xs)
