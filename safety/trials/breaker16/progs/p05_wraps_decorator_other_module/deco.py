import functools
import jax.numpy as jnp


def vec(f):
    @functools.wraps(f)
    def w(*a):
        return jnp.vectorize(f)(*a)
    return w
