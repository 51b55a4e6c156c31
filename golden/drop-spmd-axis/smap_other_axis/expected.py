"""`jax.smap` over 'x' under a vmap with spmd_axis_name='y': smap makes only 'x' manual, so 'y' cannot be."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto,) * 2)


@partial(jax.smap, in_axes=0, out_axes=0, axis_name='x')
def scale(b):
    return b * 2.0 + 1.0


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    with jax.set_mesh(mesh):
        result = jax.vmap(scale)(xs)
    reference = np.asarray(xs) * 2.0 + 1.0
    return result, reference
