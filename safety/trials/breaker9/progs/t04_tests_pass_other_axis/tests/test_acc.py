import jax.numpy as jnp

from pkg.model import accumulate
from pkg.train import apply


def test_acc():
    accumulate(apply, jnp.ones((4, 8)), "model")
