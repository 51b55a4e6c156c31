"""`partial(wrap, scale=2.0)(forward)(v)` inside the vmapped function, `wrap` a function of this module that
returns what it is given and `forward` applying a shard_map whose specs name 'x'. A partial of a function of
the project applied to arguments runs that function with them, which the walk does not bind: "All checks
passed!" while JAX raised `vmap spmd_axis_name cannot appear in shard_map in_specs`. Now an SPMD910 record at
the application (the call `wrap(forward, scale=2.0)` written out was already such a record)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def wrap(fn, scale):
    return fn


def double(b):
    return b * 2.0


def forward(v):
    return jax.shard_map(double, mesh=mesh, in_specs=P('x'), out_specs=P('x'))(v)


def step(v):
    return partial(wrap, scale=2.0)(forward)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.vmap(step, spmd_axis_name='x')(xs)
    reference = np.asarray(xs) * 2.0
    return result, reference
