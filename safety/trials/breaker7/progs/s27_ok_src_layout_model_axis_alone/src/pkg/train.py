import jax
import jax.numpy as jnp
import numpy as np

from .config import DATA
from .model import col_norm


def main():
    x = jnp.linspace(0.1, 1, 4 * 8).reshape(4, 8)
    out = jax.jit(jax.vmap(col_norm, spmd_axis_name=DATA))(x)
    xn = np.asarray(x)
    ref = xn / np.linalg.norm(xn, axis=1, keepdims=True)
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
