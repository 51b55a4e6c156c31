import jax.numpy as jnp
import numpy as np

from pkg.model import batched, block


def main():
    xs = jnp.ones((4, 8))
    out = batched(block, "data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
