"""A partial(jax.vmap, ...) decorator; the body sums over the spmd axis 'x' (a per-example reduction)."""
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


@partial(jax.vmap, in_axes=0, spmd_axis_name='x')
def center(v):
    return jax.shard_map(
        lambda t: t - jax.lax.psum(t.sum(), 'x'), mesh=mesh, in_specs=P('x'), out_specs=P('x')
    )(v)


def main():
    xs = jnp.arange(4 * 8, dtype=jnp.float32).reshape(4, 8)
    result = jax.jit(center)(xs)
    a = np.asarray(xs)
    reference = a - a.sum(axis=1, keepdims=True)
    return result, reference
