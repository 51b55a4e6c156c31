"""Per-example forward and loss, batched with an spmd vmap over DATA."""
from functools import partial

import jax
import jax.numpy as jnp

from pkg.config import DATA
from pkg.model import forward


@jax.jit
def predict(params, xs):
    return jax.vmap(partial(forward, params), spmd_axis_name=DATA)(xs)


def loss(params, xs, ys):
    preds = jax.vmap(forward, in_axes=(None, 0), spmd_axis_name=DATA)(params, xs)
    return jnp.mean((preds - ys) ** 2)


grad_step = jax.jit(jax.grad(loss))


def init(key, d=16):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"w1": jax.random.normal(k1, (d, d)) / d, "b": jax.random.normal(k2, (d,)),
            "w2": jax.random.normal(k3, (d, d)) / d}
