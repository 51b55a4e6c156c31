"""The body takes `w=W`, an array shaped for one block, as a parameter default; the shard_map is applied to `v`
alone, so `w` is not an argument the in_spec covers: after the strip it meets the whole array
(safety/trials/breaker12 s37: on main the strip was safe and auto applied it; the fixed program raised
`mul got incompatible shapes for broadcasting: (8, 2), (4, 2)`)."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))
W = jnp.arange(1.0, 9.0).reshape(4, 2)
N_ROWS = mesh.devices.shape[0]


def block(v):
    return jax.shard_map(lambda b, w=W: b * w, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(v)


def main():
    xs = jnp.arange(4 * 8 * 8, dtype=jnp.float32).reshape(4, 8, 8)
    result = jax.vmap(block, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * np.tile(np.asarray(W), (2, 4))
    return result, reference
