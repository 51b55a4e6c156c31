import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import rows


def main():
    x = jnp.linspace(-1, 1, 4 * 4 * 8).reshape(4, 4, 8)
    out = jax.jit(jax.vmap(rows, spmd_axis_name=DATA))(x)
    ref = np.asarray(x) + 1.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
