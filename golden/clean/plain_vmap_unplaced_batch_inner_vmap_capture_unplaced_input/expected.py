"""The control of fuzz seed 350770's form (golden refuse/plain_vmap_unplaced_batch_inner_vmap_committed_capture):
`xs` placed with `device_put` at its block dimension only (`P(None, None, 'data')`), `ws` left unplaced; the inner
`jax.vmap(block, in_axes=(0, None))` passes the outer-batched `w` on, and block's shard_map body closes over
`s = jnp.exp(w)`. It runs and matches, eager and under jit, check_vma True and False
(safety/measurements/plain_vmap_committed_capture_inner_nested.py, part A, `ws unplaced`): clean."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ('data', 'model'))


def block(x, w):
    s = jnp.exp(w)

    def body(b):
        return (b - jax.lax.pmean(b, 'data')) * s
    return jax.shard_map(body, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)


def apply(x, w):
    return jax.vmap(block, in_axes=(0, None))(x, w)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    blocks = xs0.reshape(8, 8, 4, 2)
    reference = (blocks - blocks.mean(axis=2, keepdims=True)).reshape(8, 8, 8) * np.exp(ws0)[:, None, None]
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, None, 'data')))
    ws = jnp.asarray(ws0)
    result = jax.vmap(apply, in_axes=(0, 0))(xs, ws)
    return result, reference
