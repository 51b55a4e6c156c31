"""Fuzz seed 30018 (simplified): a shard_map body with all-replicated specs closing over `m = x.mean() + 2.0`,
computed from the batch, in a `@jax.jit` function the spmd vmap calls, on an Explicit mesh with the batch placed
on the spmd axis: JAX raises `For primitive mul, context mesh ... should match the aval mesh` as it does without
the jit (safety/measurements/capture_under_staging_hof.py): SPMD003."""
import functools
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ('x', 'y'))


@jax.jit
def block(x):
    m = x.mean() + 2.0

    def body(b):
        return (b - b.mean()) * m
    return jax.shard_map(body, mesh=mesh, in_specs=P(), out_specs=P())(x)


@functools.partial(jax.vmap, spmd_axis_name='x')
def apply(x):
    return block(x)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P('x', None)))
    result = apply(xs)
    reference = (xs0 - xs0.mean(axis=1, keepdims=True)) * (xs0.mean(axis=1, keepdims=True) + 2.0)
    return result, reference
