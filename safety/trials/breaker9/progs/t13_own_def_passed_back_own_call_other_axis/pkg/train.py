import jax.numpy as jnp
import numpy as np

from pkg.model import accumulate, inner


def main():
    xs = jnp.arange(32.0).reshape(4, 8)
    out = accumulate(inner, xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0 + 1.0) else "mismatch")
