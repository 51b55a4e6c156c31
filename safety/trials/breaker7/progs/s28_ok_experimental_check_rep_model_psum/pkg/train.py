import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import total


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.vmap(total, spmd_axis_name="data")(x)
    print("RESULT:", "match" if np.allclose(out, np.asarray(x).sum(axis=1), atol=1e-5) else "mismatch")
