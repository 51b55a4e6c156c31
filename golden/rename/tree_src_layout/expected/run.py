import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))  # a src/ layout

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402

from pkg.train import batched  # noqa: E402


def main():
    x = jnp.arange(4 * 8 * 4, dtype=jnp.float32).reshape(4, 8, 4)
    w = jnp.array([1.0, 2.0, 3.0, 4.0], dtype=jnp.float32)
    return batched(x, w), np.asarray(x) * np.asarray(w)
