import jax
import jax.numpy as jnp
import numpy as np

from pkg import model


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8) / 10.0
    result = jax.vmap(model.block, spmd_axis_name='x')(xs)
    a = np.asarray(xs).reshape(8, 2, 4)
    reference = np.where(a.sum(-1, keepdims=True) > 1.0, a * 2.0, a - 1.0).reshape(8, 8)
    return result, reference
