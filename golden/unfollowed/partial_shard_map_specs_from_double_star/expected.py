"""`@functools.partial(jax.shard_map, **specs())`: the mesh and specs come from a mapping a helper returns. JAX
raises SPMD001's error under the spmd vmap; on main the check said 'All checks passed!' with no record (the
`**` keywords were dropped, the specs read as absent: safety/trials/breaker12 s29). Now the specs are that
mapping, which spmdfix does not evaluate: an SPMD910 record."""
import functools

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, PartitionSpec as P

mesh = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


def specs():
    return dict(mesh=mesh, in_specs=P('x'), out_specs=P('x'))


@functools.partial(jax.shard_map, **specs())
def double(b):
    return b * 2.0


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    return jax.vmap(double, spmd_axis_name='x')(xs), np.asarray(xs) * 2.0
