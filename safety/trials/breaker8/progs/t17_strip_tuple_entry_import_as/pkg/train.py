import jax
import jax.numpy as jnp
import numpy as np

import pkg.model as m
from pkg.config import DATA


def main():
    x = jnp.linspace(-1, 1, 4 * 16).reshape(4, 16)
    out = jax.vmap(m.block, spmd_axis_name=DATA)(x)
    print("RESULT:", "match" if np.allclose(out, np.abs(np.asarray(x)) + 0.5) else "mismatch")
