"""The shard_map body calls `ops.centre`, whose pmean runs over 'x', the vmap's spmd axis: JAX raises the
`pvary` error SPMD004 names. On main the tree said 'All checks passed!' (a body's collectives were read in its
own module only; safety/trials/breaker12 r36); the collectives of a function of another module the body calls
are now read in that module: SPMD004 at its pmean."""
import jax
from jax.sharding import AxisType, PartitionSpec as P

from pkg import ops

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def block(v):
    return jax.shard_map(lambda b: ops.centre(b), mesh=mesh, in_specs=P('y'), out_specs=P('y'))(v)


def forward(xs):
    return jax.vmap(block, spmd_axis_name='x')(xs)
