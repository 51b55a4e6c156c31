import jax
from jax import lax


def sum(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)
