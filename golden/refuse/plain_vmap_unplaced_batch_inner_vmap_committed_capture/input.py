"""Fuzz seed 350770's form: a plain jax.vmap over inputs placed under `jax.set_mesh` with `reshard`: `xs` at its
block dimension only (`P(None, None, 'data')`: the batch and the dimension the inner vmap maps on no axis), the
batched `ws` committed with `P(None)`; the vmapped function applies an inner `jax.vmap(block, in_axes=(0, None))`,
and block's shard_map body closes over `s = jnp.exp(w)`. JAX refuses it (`Closing over inputs to shard_map where
the input is sharded on Explicit axes`, eager and under jit, check_vma True and False; `ws` unplaced it runs:
safety/measurements/plain_vmap_committed_capture_inner_nested.py, part A): SPMD003. Lifting `s` is not measured
here: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import PartitionSpec as P

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
    with jax.set_mesh(mesh):
        xs = jax.sharding.reshard(jnp.asarray(xs0), P(None, None, 'data'))
        ws = jax.sharding.reshard(jnp.asarray(ws0), P(None))
        result = jax.vmap(apply, in_axes=(0, 0))(xs, ws)
    return result, reference
