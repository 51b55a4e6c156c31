"""The shard_map body is `functools.partial(scale, w=W)`: `w` is bound to W, an array shaped for one block, not
an argument the in_spec covers, though `scale(b, w)` lists it as a parameter. After the strip it meets the whole
array (safety/trials/breaker12 s05: on main the strip was safe; the fixed program raised `mul got incompatible
shapes for broadcasting: (8,), (4,)`)."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
W = jnp.arange(1.0, 5.0)


def scale(b, w):
    return b * w


def block(v):
    return jax.shard_map(functools.partial(scale, w=W), mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    return result, np.asarray(xs) * np.tile(np.arange(1.0, 5.0), 2)
