import jax
import jax.numpy as jnp

from pa.config import DATA
from pa.model import forward


def main():
    xs = jnp.linspace(-1.0, 1.0, 8 * 4 * 16).reshape(8, 4, 16)
    return jax.jit(jax.vmap(forward, spmd_axis_name=DATA))(xs)
