import jax.numpy as jnp

from . import forward


def evaluate(xs):
    return jnp.stack([forward(x) for x in xs])
