"""The project spells axes by constants: the rename writes `MODEL`, visible here, not the literal "model"."""
import jax
import jax.numpy as jnp

from pkg.config import DATA, MODEL
from pkg.model import forward

AXES_USED = (DATA, MODEL)


def main():
    xs = jnp.arange(8 * 16, dtype=jnp.float32).reshape(8, 16)
    return jax.vmap(forward, spmd_axis_name=MODEL)(xs), xs * 2.0
