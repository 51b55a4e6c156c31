import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA, MODEL
from pkg.model import block

DATA = MODEL  # per-example axis: the model axis (the data axis is used inside the block)


def main():
    x = jnp.linspace(-1, 1, 8 * 8).reshape(8, 8)
    out = jax.vmap(block, spmd_axis_name=DATA)(x)
    print("RESULT:", "match" if np.allclose(out, np.asarray(x) * 0.25) else "mismatch")
