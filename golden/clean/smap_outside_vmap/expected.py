"""`jax.smap` over 'x' applied to the output of a vmap with spmd_axis_name='x', not inside it."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


def scale(row):
    return row * 2.0


def shift(b):
    return b + 1.0


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        scaled = jax.vmap(scale, spmd_axis_name='x')(xs)
        result = jax.smap(shift, in_axes=0, out_axes=0, axis_name='x')(scaled)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
