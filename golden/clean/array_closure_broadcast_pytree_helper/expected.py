"""Issue 22 (silence5): clean/array_closure_broadcast_pytree_dict with the dict operand built by a helper of the
module (`def pack(x, w): return {'a': x, 'b': w}`, called with the block's arguments): its leaves' ranks are read
through the helper's one return, `d['a'] * W` broadcasts W to a higher rank: runs and matches (no SPMD003; it
was a false positive; safety/measurements/capture_array_broadcast_pytree_built.py)."""
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
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    result = jax.vmap(apply, in_axes=(0, 0), spmd_axis_name='x')(jnp.asarray(xs0), jnp.asarray(ws0))
    return result, xs0 * np.asarray(W) * ws0[:, None, None]
