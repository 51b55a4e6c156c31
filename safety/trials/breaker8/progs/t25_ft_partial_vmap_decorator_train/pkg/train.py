import functools as ft

import jax
import jax.numpy as jnp
import numpy as np

from pkg import config
from pkg.model import block


@jax.jit
@ft.partial(jax.vmap, in_axes=0, spmd_axis_name=config.DATA)
def step(x):
    return block(x) * 2.0


def main():
    x = jnp.linspace(-1, 1, 4 * 4 * 8).reshape(4, 4, 8)
    out = step(x)
    print("RESULT:", "match" if np.allclose(out, 2 * np.cos(np.asarray(x)), atol=1e-5) else "mismatch")
