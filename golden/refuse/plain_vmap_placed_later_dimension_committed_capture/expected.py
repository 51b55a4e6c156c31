"""A plain jax.vmap over `xs` placed on the Explicit mesh at a later dimension only (`P(None, None, 'data')`: the
batch dimension and the next one on no axis), with the batched `ws` committed with `P(None)`; the shard_map body
(in_specs `P(None, 'data')`) closes over `s = jnp.exp(w)`. JAX refuses it (`Closing over inputs to shard_map where
the input is sharded on Explicit axes`, eager and under jit, check_vma True and False; `ws` unplaced it runs:
safety/measurements/plain_vmap_committed_capture_inner_nested.py, part A, `direct, rank 2`): SPMD003. Lifting `s`
is not measured here: nothing applied."""
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((4, 2), ('data', 'model'))


def block(x, w):
    s = jnp.exp(w)

    def body(b):
        return (b - jax.lax.pmean(b, 'data')) * s
    return jax.shard_map(body, mesh=mesh, in_specs=P(None, 'data'), out_specs=P(None, 'data'))(x)


def main():
    xs0 = (np.arange(512, dtype=np.float32).reshape(8, 8, 8) - 170.0) / 128.0
    ws0 = np.linspace(0.5, 2.0, 8, dtype=np.float32)
    blocks = xs0.reshape(8, 8, 4, 2)
    reference = (blocks - blocks.mean(axis=2, keepdims=True)).reshape(8, 8, 8) * np.exp(ws0)[:, None, None]
    xs = jax.device_put(jnp.asarray(xs0), NamedSharding(mesh, P(None, None, 'data')))
    ws = jax.device_put(jnp.asarray(ws0), NamedSharding(mesh, P(None)))
    result = jax.vmap(block)(xs, ws)
    return result, reference
