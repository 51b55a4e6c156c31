import jax
import jax.numpy as jnp
import numpy as np

from pkg.config import DATA
from pkg.model import Scaled


def per_example(scale, x):
    return Scaled(scale)(x)


def main():
    scales = jnp.arange(1.0, 9.0)
    x = jnp.ones((8, 8))
    out = jax.vmap(per_example, spmd_axis_name=DATA)(scales, x)
    print("RESULT:", "match" if np.allclose(out, np.asarray(scales)[:, None] * np.ones((8, 8))) else "mismatch")
