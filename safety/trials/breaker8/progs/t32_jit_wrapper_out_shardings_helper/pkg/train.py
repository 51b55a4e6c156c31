import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import block
from pkg.shardings import rows


def main():
    x = jnp.ones((8, 8))
    step = jax.jit(jax.vmap(block, spmd_axis_name=DATA), out_shardings=rows(DATA))
    out = step(x)
    print("RESULT:", "match" if np.allclose(out, 9.0) else "mismatch")
