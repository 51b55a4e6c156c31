import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import CFG
from pkg.model import block


def main():
    x = jnp.linspace(-1, 1, 4 * 8).reshape(4, 8)
    out = jax.vmap(block, spmd_axis_name=CFG.axes[0])(x)
    print("RESULT:", "match" if np.allclose(out, np.asarray(x) ** 2 + 1, atol=1e-5) else "mismatch")
