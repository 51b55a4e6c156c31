"""Issue 22 (silence5): the failing twin of clean/array_closure_broadcast_pytree_helper: `xs` of shape (8, 8), so
the leaf `d['a']` of the helper-built dict has rank 1, W's own: `d['a'] * W` fails (`AssertionError: ManualAxisType`;
safety/measurements/capture_array_broadcast_pytree_built.py) and SPMD003 stays; lifted with `P()` it runs."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))
W = jnp.linspace(0.5, 1.5, 8, dtype=jnp.float32)


def body(d):
    return (d['a'] * W) * d['b']


def pack(x, w):
    return {'a': x, 'b': w}


def block(x, w):
    return jax.shard_map(body, mesh=mesh, in_specs=({'a': P(), 'b': P()},), out_specs=P())(pack(x, w))


def apply(x, w):
    return block(x, w)


def main():
    xs0 = (np.arange(64, dtype=np.float32).reshape(8, 8) - 21.0) / 16.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(jnp.asarray(xs0), jnp.asarray(ws0))
    return result, xs0 * np.asarray(W) * ws0[:, None]
