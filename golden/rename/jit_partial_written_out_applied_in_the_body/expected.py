"""`partial(jax.jit, donate_argnums=())(forward)(v)` inside the vmapped function: the partial applied to
`forward` makes the jitted function called at once. The walk read the inner call as a call of `partial`,
which reached `jax.jit` and not `forward`: "All checks passed!" while JAX raised `vmap spmd_axis_name cannot
appear in shard_map in_specs`. Now `forward` is followed, and 'x' is renamed to the free 'y'."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def double(b):
    return b * 2.0


def forward(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def step(v):
    return partial(jax.jit, donate_argnums=())(forward)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(step, spmd_axis_name='y')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
