import jax

from pkg.config import DATA
from pkg.model import forward

__all__ = ["DATA", "exported"]


def exported(xs):
    return jax.vmap(forward)(xs)
