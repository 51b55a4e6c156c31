import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import Axes
from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 8 * 4 * 8).reshape(8, 4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name=Axes.DATA))(x)
    ref = np.cos(np.asarray(x)) * 2.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
