"""Training helpers: the loss and the per-member gradient (was pmap(grad(loss), axis_name='data'))."""
from functools import partial

import jax
import jax.numpy as jnp

from ens import layers
from ens.config import CFG


def loss(w, x):
    return jnp.sum(layers.mlp(x, w) ** 2)


def member_grads(ws, x):
    return jax.vmap(jax.grad(loss), in_axes=(0, None), spmd_axis_name=CFG.data)(ws, x)


per_member = partial(jax.vmap, in_axes=(0, None), spmd_axis_name=CFG.data)


def scan_layers(ws, x):
    """ws: (L, D, D) stacked layer weights; apply them in turn."""
    def step(h, w):
        return layers.mlp(h, w), None
    h, _ = jax.lax.scan(step, x, ws)
    return h
