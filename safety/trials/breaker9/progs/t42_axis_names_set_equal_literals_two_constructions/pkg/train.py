import jax
import jax.numpy as jnp
import numpy as np

import pkg.aaa_other  # noqa: F401
from pkg.model import Layer


def main():
    xs = jnp.ones((4, 8))
    layer = Layer({"model"})
    out = jax.vmap(layer, spmd_axis_name="data")(xs)
    print("RESULT:", "match" if np.allclose(out, np.asarray(xs) * 2.0) else "mismatch")
