import jax
import jax.numpy as jnp
import numpy as np

from app import model
from app.config import DATA


def run():
    x = jnp.linspace(-2, 2, 8 * 16).reshape(8, 16)
    out = jax.vmap(model.block, spmd_axis_name=DATA)(x)
    ref = np.sin(np.asarray(x)) + 1.0
    print("RESULT:", "match" if np.allclose(out, ref, atol=1e-5) else "mismatch")
