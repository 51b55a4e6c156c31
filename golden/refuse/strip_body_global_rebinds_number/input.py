"""`SCALE = 1.0` reads as a number, but `setup()` declares `global SCALE` and rebinds it to an array shaped for
one block before the vmap runs: after the strip it meets the whole array (safety/trials/breaker12 s41: on main
the strip was safe; the fixed program raised `mul got incompatible shapes for broadcasting: (8,), (4,)`)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
SCALE = 1.0


def setup():
    global SCALE
    SCALE = jnp.arange(1.0, 5.0)


def block(v):
    return jax.shard_map(lambda b: b * SCALE, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    setup()
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * np.tile(np.arange(1.0, 5.0), 2)
    return result, reference
