import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import AX
from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 8 * 4 * 8).reshape(8, 4, 8)
    out = jax.jit(jax.vmap(block, spmd_axis_name=AX.data))(x)
    print("RESULT:", "match" if np.allclose(out, np.maximum(np.asarray(x), 0), atol=1e-5) else "mismatch")
