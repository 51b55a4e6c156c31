"""Batched forward under jit."""
from functools import partial

import jax

from seq import config
from seq.model import stack


@partial(jax.jit, static_argnames=("depth",))
def forward(ws, xs, depth=2):
    return jax.vmap(lambda x: stack(ws[:depth], x), spmd_axis_name=config.DATA)(xs)
