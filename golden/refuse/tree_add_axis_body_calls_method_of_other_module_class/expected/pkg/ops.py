"""A class whose `sum` applies `lax.cond` over a traced predicate (not an array's `sum`)."""
from jax import lax


class Summer:
    def sum(self, t):
        return lax.cond(t.sum() > 1.0, lambda u: u * 2.0, lambda u: u, t)
