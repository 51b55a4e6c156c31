import jax
import jax.numpy as jnp
from jax import lax


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


import types
SUMMER = types.SimpleNamespace(sum=_cond)
