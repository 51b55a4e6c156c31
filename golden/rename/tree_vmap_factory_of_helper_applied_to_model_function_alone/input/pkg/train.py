import jax.numpy as jnp
import numpy as np

from pkg import helpers
from pkg.model import forward


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    batched = helpers.make_batched(forward)  # helpers.py's vmap applies model.py's `forward`
    return batched(xs), np.asarray(xs) * 2.0
