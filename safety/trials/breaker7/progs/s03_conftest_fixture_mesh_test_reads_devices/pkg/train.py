import jax
import jax.numpy as jnp
import numpy as np

from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name="data")(x)
    ref = np.sin(np.asarray(x)) + 1.0
    if not np.allclose(out, ref, atol=1e-5):
        print("RESULT: mismatch")
        raise SystemExit(0)
