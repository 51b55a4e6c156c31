"""`JIT = partial(jax.jit, donate_argnums=())` bound to a name and applied to the vmapped function
(`jax.vmap(JIT(forward), spmd_axis_name='x')`): `forward` applies a shard_map whose specs name 'x'. The walk
did not look through a name bound to a partial of `jax.jit` at a callable it makes: "All checks passed!"
while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs`. Now the jitted function is
followed as `partial(jax.jit, ...)(forward)` written out is, and 'x' is renamed to the free 'y'."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
JIT = partial(jax.jit, donate_argnums=())


def double(b):
    return b * 2.0


def forward(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(JIT(forward), spmd_axis_name='y')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
