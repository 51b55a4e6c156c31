import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    if not np.allclose(out, 2 * np.asarray(x), atol=1e-5):
        print("RESULT: mismatch")
