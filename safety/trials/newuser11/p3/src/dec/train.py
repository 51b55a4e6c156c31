"""Per-example loss and gradient, batched with a vmap factory."""
from functools import partial

import jax
import jax.numpy as jnp

from dec.config import DATA
from dec.model import forward

per_example = partial(jax.vmap, spmd_axis_name=DATA)


def loss(x, s):
    return jnp.sum(forward(x, s) ** 2)


@jax.jit
def batch_loss_and_grad(xs, ss):
    return per_example(jax.value_and_grad(loss))(xs, ss)


def main():
    xs = jnp.linspace(-2.0, 2.0, 8 * 4 * 16).reshape(8, 4, 16)
    ss = jnp.linspace(0.5, 1.5, 8)
    return batch_loss_and_grad(xs, ss)
