"""Batched layers under jit."""
import jax
import jax.numpy as jnp

from axes.config import DATA
from axes.model import Affine, mean_rows


@jax.jit
def step(xs):
    return jax.vmap(mean_rows, spmd_axis_name=DATA)(xs)


@jax.jit
def step_affine(xs):
    return jax.vmap(Affine(2.0, 1.0), spmd_axis_name=DATA)(xs)


def main():
    xs = jnp.arange(8 * 4 * 16, dtype=jnp.float32).reshape(8, 4, 16)
    return step(xs), step_affine(xs)
