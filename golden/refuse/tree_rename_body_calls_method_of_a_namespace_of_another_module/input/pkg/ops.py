import types

from jax import lax


def _cond(t):
    return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


SUMMER = types.SimpleNamespace(sum=_cond)
