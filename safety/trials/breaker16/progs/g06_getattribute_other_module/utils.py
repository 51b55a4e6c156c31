import jax.numpy as jnp
from jax import lax


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


class Ops:
    def __getattribute__(self, name):
        if name == 'scale':
            return _cond
        return object.__getattribute__(self, name)

    def scale(self, t):
        return t * 2.0


OPS = Ops()
