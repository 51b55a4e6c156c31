import functools
import dataclasses
import jax
import jax.numpy as jnp
from jax import lax


class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)

    def __call__(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)

    def mean(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)


SUMMER = Summer()


def make_summer():
    return Summer()


@dataclasses.dataclass
class Cfg:
    summer: Summer = dataclasses.field(default_factory=Summer)


CFG = Cfg()
