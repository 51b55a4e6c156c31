import jax.numpy as jnp
import numpy as np

import pkg.model
from pkg.model import block

accumulate = None  # placeholder until model is loaded


def apply(x):
    return block(x) + 1.0


def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    out = pkg.model.accumulate(apply, xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0 + 1.0) else "mismatch")
