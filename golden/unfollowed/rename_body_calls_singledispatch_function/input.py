"""The shard_map body calls `op(b)`, a `functools.singledispatch` function whose implementation registered for
tracers takes `psum` over 'y'. The call walk read `op`'s own body (`t * 2.0`), the rename to 'y' was SAFE and
the renamed program's values changed (the psum then ran over the spmd axis: breaker16 r05). Which registered
implementation runs is not followed: an SPMD910 record at the decorator, and rename is unsafe."""
import functools

import jax
import jax.numpy as jnp
from jax import lax
from jax.sharding import AxisType, PartitionSpec as P

MESH = jax.make_mesh((2, 4), ('x', 'y'), axis_types=(AxisType.Auto, AxisType.Auto))


@functools.singledispatch
def op(t):
    return t * 2.0


@op.register(jax.core.Tracer)
def _(t):
    return t + lax.psum(t, 'y')


def layer(v):
    return jax.shard_map(lambda b: op(b), mesh=MESH, in_specs=P('x'), out_specs=P('x'), check_vma=False)(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8) / 10.0
    result = jax.vmap(layer, spmd_axis_name='x')(xs)
    reference = jax.vmap(layer)(xs)
    return result, reference
