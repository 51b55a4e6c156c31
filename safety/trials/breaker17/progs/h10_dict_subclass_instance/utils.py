import jax
import jax.numpy as jnp
from jax import lax


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


class Summer(dict):
    pass


Summer.sum = staticmethod(_cond)


SUMMER = Summer()
