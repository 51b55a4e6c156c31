"""`jax.smap` over the spmd axis 'x' whose in_axes and out_axes are None: its specs name no axis, and 'x' is
its manual axis, so JAX runs it under spmd_axis_name='x'."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


def layer(v):
    return jax.smap(lambda b: b * 2.0 + 1.0, in_axes=None, out_axes=None, axis_name='x')(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
