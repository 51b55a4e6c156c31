import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA, MESH
from pkg.model import Layer


def main():
    layer = Layer(MESH)
    x = jnp.linspace(-1, 1, 8 * 8).reshape(8, 8)
    out = jax.vmap(layer.apply, spmd_axis_name=DATA)(x)
    print("RESULT:", "match" if np.allclose(out, np.asarray(x) + 0.125) else "mismatch")
