"""The body reads `weights.W`, an array of another module shaped for one block: after the strip it meets the
whole array (safety/trials/breaker12 s33: on main `weights.W` was taken for a module constant such as `jnp.pi`,
the strip was safe and the fixed program raised `mul got incompatible shapes for broadcasting: (8,), (4,)`)."""
import jax
from jax.sharding import AxisType, PartitionSpec as P

from pkg import weights

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: b * weights.W, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def forward(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)
