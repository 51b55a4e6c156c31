import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import MESH
from pkg.model import Scaler


def main():
    m = Scaler(MESH, 2.5)
    x = jnp.linspace(-1, 1, 8 * 8).reshape(8, 8)
    out = jax.vmap(m, spmd_axis_name="data")(x)
    print("RESULT:", "match" if np.allclose(out, np.asarray(x) * 2.5) else "mismatch")
